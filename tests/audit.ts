import type { Page } from 'playwright-core';
import { WAIT_GUARD_MS } from '../vitest.guards.ts';

// What every screen must hold in every state a rider meets it in (the state matrix and the
// crawl's languages): no script error, charts that have data draw it, no table column
// narrower than its longest unbreakable piece of text, touch targets far enough apart (WCAG
// 2.2 target size, 2.5.8: 24 px, or a 24 px circle around a smaller one touching no other
// target), no figure split from its unit across two lines, and no sideways scrolling. Each check runs in the page (a string: the tests have no DOM types).

/** Script errors and console errors of a page, from now on (network failures left out). */
export function watchErrors(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    // A refused request (401 at a session's end, 404 of a stopped share) is logged by the
    // browser itself as a resource failure: the page handles it; that is what is tested.
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text()))
      errors.push(`console: ${message.text()}`);
  });
  return () => errors.splice(0);
}

const CHECKS = `(() => {
  const problems = [];
  const visible = (element) => {
    if (!element.checkVisibility || !element.checkVisibility()) return false;
    for (let at = element; at; at = at.parentElement)
      if (getComputedStyle(at).clipPath !== 'none') return false;
    const box = element.getBoundingClientRect();
    return box.width > 1 && box.height > 1;
  };

  // Charts: an SVG chart's size and a mark with at least two points (a line or an area), or
  // bars; a title and axes alone are a blank chart.
  for (const svg of document.querySelectorAll('main svg')) {
    const box = svg.getBoundingClientRect();
    if (box.width < 150 || box.height < 80 || !visible(svg)) continue;
    const lines = [...svg.querySelectorAll('path')].filter(
      (path) => ((path.getAttribute('d') || '').match(/-?\\d+(\\.\\d+)?/g) || []).length >= 4,
    );
    const marks = [...svg.querySelectorAll('rect, circle')].filter((mark) => {
      const markBox = mark.getBoundingClientRect();
      return markBox.width > 0 && markBox.height > 0;
    });
    if (lines.length === 0 && marks.length < 2)
      problems.push('a chart draws nothing: ' + (svg.getAttribute('aria-label') || svg.closest('[aria-label]')?.getAttribute('aria-label') || svg.parentElement?.className || 'svg'));
  }

  // Table cells at least as wide as their longest word, in their own font.
  const probe = document.createElement('span');
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
  document.body.append(probe);
  for (const cell of document.querySelectorAll('main th, main td')) {
    if (!visible(cell)) continue;
    const style = getComputedStyle(cell);
    const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    probe.style.font = style.font;
    // A line may break at a space (not a no-break space: a figure and its unit), after a hyphen not followed by a digit (not in 2024-05-01)
    // and beside any Chinese, Japanese or Korean character, as browsers break them: those
    // are the pieces that must fit.
    const pieces = (cell.innerText || '')
      .split(/[ \\t\\n\\r]+/)
      .flatMap((word) => word.split(/(?<=-)(?!\\d)|(?<=[\\u3000-\\u9fff\\uac00-\\ud7af\\uff00-\\uffef])|(?=[\\u3000-\\u9fff\\uac00-\\ud7af\\uff00-\\uffef])/));
    for (const word of pieces) {
      if (!word) continue;
      probe.textContent = word;
      if (probe.getBoundingClientRect().width > room + 1)
        problems.push('"' + word + '" does not fit its column (' + Math.round(room) + ' px)');
    }
  }
  probe.remove();

  // Touch targets (WCAG 2.2, 2.5.8). Links inside a sentence are exempt, as WCAG has it.
  const targets = [...document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab], [role=checkbox]',
  )].filter((element) => {
    if (!visible(element)) return false;
    if (element.matches('input[type=checkbox], input[type=radio]') && element.closest('label')) return false;
    if (element.tagName === 'A') {
      const parent = element.parentElement;
      const own = (element.textContent || '').trim().length;
      const around = (parent?.textContent || '').trim().length;
      if (parent && around > own + 1 && getComputedStyle(element).display === 'inline') return false;
    }
    return true;
  });
  const boxes = targets.map((element) => {
    const box = element.getBoundingClientRect();
    return {
      element, box,
      small: box.width < 23.5 || box.height < 23.5,
      x: box.left + box.width / 2, y: box.top + box.height / 2,
    };
  });
  const distanceToBox = (x, y, box) => {
    const dx = Math.max(box.left - x, 0, x - box.right);
    const dy = Math.max(box.top - y, 0, y - box.bottom);
    return Math.hypot(dx, dy);
  };
  const name = (element) =>
    (element.getAttribute('aria-label') || element.textContent || element.getAttribute('name') || element.tagName).trim().slice(0, 40);
  for (const a of boxes) {
    if (!a.small) continue;
    for (const b of boxes) {
      if (a === b || a.element.contains(b.element) || b.element.contains(a.element)) continue;
      const crowded = b.small
        ? Math.hypot(a.x - b.x, a.y - b.y) < 24 - 0.5
        : distanceToBox(a.x, a.y, b.box) < 12 - 0.5;
      if (crowded) {
        problems.push('target "' + name(a.element) + '" (' + Math.round(a.box.width) + 'x' + Math.round(a.box.height) + ') crowds "' + name(b.element) + '"');
        break;
      }
    }
  }

  // A figure and its unit on one line ("254.61 km", "219 W", "27,5 km/h"): each such text is
  // measured where it stands, and a figure whose pieces sit on two lines is named.
  const figure = /\\d[\\d.,\\u00a0\\u202f]*[ \\u00a0\\u202f]?(?:km\\/h|km|mi|mph|m|ft|bpm|W\\/kg|W|kJ|kcal|rpm|h|min)(?![\\p{L}\\/])/gu;
  const walker = document.createTreeWalker(document.querySelector('main') || document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent || '';
    if (!/\\d/.test(text) || !node.parentElement || !visible(node.parentElement)) continue;
    for (const match of text.matchAll(figure)) {
      if (!/[ \\u00a0\\u202f]/.test(match[0])) continue;
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].filter((box) => box.width > 0).map((box) => Math.round(box.top)));
      if (tops.size > 1) problems.push('"' + match[0] + '" splits from its unit across lines');
    }
  }

  if (document.documentElement.scrollWidth > window.innerWidth)
    problems.push('the page scrolls sideways (' + document.documentElement.scrollWidth + ' px)');
  return problems;
})()`;

/**
 * Settles once every chart panel has drawn its plot (ui-kit's panels say so in `data-drawn`:
 * one more than a screen below the window draws when the browser is idle), then the browser
 * has been idle twice and has drawn a frame, however busy the machine. An idle callback's
 * timeout alone was not enough: on a loaded machine it came before a panel's own idle turn,
 * and the audit took a chart about to be drawn for a blank one.
 */
const SETTLED = `new Promise((done) => {
  const idle = (next) =>
    typeof requestIdleCallback === 'function'
      ? requestIdleCallback(next, { timeout: 3000 })
      : setTimeout(next, 200);
  const drawn = () => {
    if (document.querySelector('main [data-drawn="false"]')) setTimeout(drawn, 50);
    else idle(() => idle(() => requestAnimationFrame(() => done(true))));
  };
  drawn();
})`;

/** What is wrong with the page as it stands, once settled (an empty list when nothing). */
export async function auditPage(page: Page): Promise<string[]> {
  await page.evaluate(SETTLED);
  // A chart with no mark yet may still be drawing (the crawl found the routebook's profile
  // blank for a moment in one language or another on loaded machines, the same page drawn
  // in the other eight): it is waited for, up to the wait guard, and reported only if it
  // stays blank.
  const blank = (problem: string) => problem.startsWith('a chart draws nothing');
  const until = performance.now() + WAIT_GUARD_MS;
  let problems = await page.evaluate<string[]>(CHECKS);
  while (problems.some(blank) && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    problems = await page.evaluate<string[]>(CHECKS);
  }
  return problems;
}

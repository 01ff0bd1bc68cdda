/**
 * Text that leaves its box: every line of every text node under `root` must lie within the
 * nearest box around it that is not inline (a button, a cell, a label), within every box
 * between it and `root` that clips its content (on the axis that clips), and within `root`
 * sideways. A long word that is neither wrapped nor hyphenated runs out of its tile
 * ("chwindigkeitsdiagr" clipped in a 96 px tile) or into its neighbour; a wrapped label in a
 * box of fixed height is cut at its bottom. Returns one line a problem: the text and by how
 * many pixels it leaves which box.
 */
export function overflowingTexts(root: HTMLElement): string[] {
  const problems: string[] = [];
  const bounds = root.getBoundingClientRect();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim();
    if (!text || !node.parentElement) continue;
    // Text a component hides on purpose (a visually hidden label, a phone's table head
    // kept for screen readers) is not drawn; text in a box that scrolls is reached by it.
    const around = ancestors(node.parentElement, root);
    if (around === 'hidden') continue;
    let holder: HTMLElement = node.parentElement;
    while (
      ['inline', 'contents'].includes(getComputedStyle(holder).display) &&
      holder.parentElement &&
      holder !== root
    )
      holder = holder.parentElement;
    if (holder.getClientRects().length === 0) continue;
    const clipping = around;
    const box = holder.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const line of range.getClientRects()) {
      if (line.width === 0) continue;
      const sideways = (outer: DOMRect) =>
        Math.max(outer.left - line.left, line.right - outer.right);
      const upDown = (outer: DOMRect) => Math.max(outer.top - line.top, line.bottom - outer.bottom);
      const cut = clipping
        .map(({ element, rect, x, y }) => ({
          element,
          by: Math.max(x ? sideways(rect) : 0, y ? upDown(rect) : 0),
        }))
        .find(({ by }) => by > 1);
      if (sideways(box) > 1)
        problems.push(
          `"${text}" leaves its <${holder.localName}> by ${sideways(box).toFixed(0)} px`,
        );
      else if (cut)
        problems.push(
          `"${text}" is cut by its <${cut.element.localName}> by ${cut.by.toFixed(0)} px`,
        );
      else if (sideways(bounds) > 1)
        problems.push(`"${text}" leaves the component by ${sideways(bounds).toFixed(0)} px`);
    }
  }
  return [...new Set(problems)];
}

/**
 * One walk from `element` up to `root`: 'hidden' where an ancestor hides its content (1 px,
 * clipped) or scrolls it sideways, else the boxes that clip it (overflow hidden or clip; an
 * inline box clips nothing).
 */
function ancestors(element: HTMLElement, root: HTMLElement): 'hidden' | ClippingBox[] {
  const boxes: ClippingBox[] = [];
  const clips = (overflow: string) => overflow === 'hidden' || overflow === 'clip';
  for (let at: HTMLElement | null = element; at && at !== root; at = at.parentElement) {
    const style = getComputedStyle(at);
    if (at.classList.contains('xoss-visually-hidden')) return 'hidden';
    if (style.overflowX === 'auto' || style.overflowX === 'scroll') return 'hidden';
    if (style.overflow === 'hidden' && at.getBoundingClientRect().width <= 1) return 'hidden';
    if (['inline', 'contents'].includes(style.display)) continue;
    const x = clips(style.overflowX);
    const y = clips(style.overflowY);
    if (x || y) boxes.push({ element: at, rect: at.getBoundingClientRect(), x, y });
  }
  return boxes;
}

interface ClippingBox {
  readonly element: HTMLElement;
  readonly rect: DOMRect;
  /** Whether it clips sideways, and up and down. */
  readonly x: boolean;
  readonly y: boolean;
}

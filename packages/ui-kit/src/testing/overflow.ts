/**
 * Text that leaves its box: every line of every text node under `root` must lie within the
 * nearest box around it that is not inline (a button, a cell, a label), and within `root`.
 * A long word that is neither wrapped nor hyphenated runs out of its tile ("chwindigkeitsdiagr"
 * clipped in a 96 px tile) or into its neighbour. Returns one line a problem: the text and by
 * how many pixels it leaves which box.
 */
export function overflowingTexts(root: HTMLElement): string[] {
  const problems: string[] = [];
  const bounds = root.getBoundingClientRect();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim();
    if (!text || !node.parentElement) continue;
    let holder: HTMLElement = node.parentElement;
    while (getComputedStyle(holder).display === 'inline' && holder.parentElement && holder !== root)
      holder = holder.parentElement;
    // Text a component hides on purpose (a visually hidden label, a phone's table head
    // kept for screen readers) is not drawn; text in a box that scrolls is reached by it.
    if (holder.getClientRects().length === 0 || hiddenOrScrolled(node.parentElement, root))
      continue;
    const box = holder.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const line of range.getClientRects()) {
      if (line.width === 0) continue;
      const out = Math.max(box.left - line.left, line.right - box.right);
      const outOfRoot = Math.max(bounds.left - line.left, line.right - bounds.right);
      if (out > 1)
        problems.push(`"${text}" leaves its <${holder.localName}> by ${out.toFixed(0)} px`);
      else if (outOfRoot > 1)
        problems.push(`"${text}" leaves the component by ${outOfRoot.toFixed(0)} px`);
    }
  }
  return [...new Set(problems)];
}

/** Whether an element up to `root` hides its content (1 px, clipped) or scrolls it sideways. */
function hiddenOrScrolled(element: HTMLElement, root: HTMLElement): boolean {
  for (let at: HTMLElement | null = element; at && at !== root; at = at.parentElement) {
    const style = getComputedStyle(at);
    if (at.classList.contains('xoss-visually-hidden')) return true;
    if (style.overflowX === 'auto' || style.overflowX === 'scroll') return true;
    if (style.overflow === 'hidden' && at.getBoundingClientRect().width <= 1) return true;
  }
  return false;
}

"""A small accessibility smoke check run in the page: labels, overflow at 360 px, contrast."""

CHECK_JS = r"""
() => {
  const problems = [];
  const visible = (el) => {
    const s = getComputedStyle(el);
    return s.display !== "none" && s.visibility !== "hidden" && el.getClientRects().length > 0;
  };
  for (const el of document.querySelectorAll("input, select, textarea")) {
    if (el.type === "hidden" || !visible(el)) continue;
    const labelled = (el.id && document.querySelector(`label[for="${el.id}"]`)) ||
      el.closest("label") || el.getAttribute("aria-label") || el.getAttribute("aria-labelledby") ||
      el.getAttribute("title");
    if (!labelled) problems.push(`no label: <${el.tagName.toLowerCase()} name="${el.name}">`);
  }
  for (const el of document.querySelectorAll("button, a[href]")) {
    if (!visible(el)) continue;
    const name = (el.textContent || "").trim() || el.getAttribute("aria-label") || el.getAttribute("title");
    if (!name) problems.push(`no accessible name: ${el.outerHTML.slice(0, 80)}`);
  }
  if (!document.documentElement.lang) problems.push("no lang on <html>");
  if (!document.title.trim()) problems.push("no <title>");
  // A mobile browser widens its layout viewport to fit wide content: compare with the screen.
  const overflow = document.documentElement.scrollWidth - Math.min(window.innerWidth, screen.width);
  if (overflow > 1) problems.push(`page wider than the screen by ${overflow}px`);
  return problems;
}
"""

CONTRAST_JS = r"""
(selector) => {
  const parse = (c) => (c.match(/[\d.]+/g) || []).slice(0, 4).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const el = document.querySelector(selector);
  let bg = el, color = parse(getComputedStyle(el).color), back = null;
  while (bg) {
    const c = parse(getComputedStyle(bg).backgroundColor);
    if (c.length >= 3 && (c.length < 4 || c[3] > 0)) { back = c; break; }
    bg = bg.parentElement;
  }
  back = back || [255, 255, 255];
  const [a, b] = [lum(color), lum(back)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}
"""


def check_page(page) -> list[str]:
    return page.evaluate(CHECK_JS)


def contrast(page, selector: str) -> float:
    return page.evaluate(CONTRAST_JS, selector)

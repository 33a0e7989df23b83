"""A small accessibility smoke check run in the page: labels, names, clipped content at
360 px, contrast.

Clipped content is whatever a phone's user cannot see and cannot reach: the page wider than
the screen; content cut off by a box that hides its overflow (``overflow: hidden/clip``, which
``text-overflow: ellipsis`` needs); an element past the screen's right edge with no scrolling
box around it; and content that scrolls sideways inside a box that does not say so. A box that
scrolls sideways on purpose carries the ``scroll-x`` class, whose style shows that there is
more to the side (keep it for grids that have no better phone layout).
"""

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
  const screenWidth = Math.min(window.innerWidth, screen.width);
  const overflow = document.documentElement.scrollWidth - screenWidth;
  if (overflow > 1) problems.push(`page wider than the screen by ${overflow}px`);

  // Clipped content.
  const name = (el) => {
    let text = `<${el.tagName.toLowerCase()}`;
    if (el.id) text += `#${el.id}`;
    if (el.classList.length) text += "." + Array.from(el.classList).join(".");
    const words = (el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return text + (words ? `> «${words}»` : ">");
  };
  const scrolls = (s) => s.overflowX === "auto" || s.overflowX === "scroll";
  const hides = (value) => value === "hidden" || value === "clip";
  const skipped = new Set(["SCRIPT", "STYLE", "TEMPLATE", "OPTION", "INPUT", "SELECT", "TEXTAREA", "BR"]);
  const inScroller = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (scrolls(getComputedStyle(up))) return true;
    }
    return false;
  };
  const pastEdge = new Set();
  const hiddenBoxes = [];  // visually hidden on purpose (.sr-only): they and what they hold
  for (const el of document.body.querySelectorAll("*")) {
    if (skipped.has(el.tagName) || !visible(el)) continue;
    if (hiddenBoxes.some((box) => box.contains(el))) continue;
    const s = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (box.width <= 1 && box.height <= 1) { hiddenBoxes.push(el); continue; }
    const wide = el.scrollWidth - el.clientWidth;
    const tall = el.scrollHeight - el.clientHeight;
    if (el.clientWidth > 0 && hides(s.overflowX) && wide > 1) {
      problems.push(`clipped: ${name(el)} hides ${wide}px of its content`);
    } else if (el.clientHeight > 0 && hides(s.overflowY) && tall > 2) {
      problems.push(`clipped: ${name(el)} hides ${tall}px of its content below`);
    }
    if (scrolls(s) && el.clientWidth > 0 && wide > 1 && !el.classList.contains("scroll-x")) {
      problems.push(`cut off: ${name(el)} scrolls ${wide}px sideways without showing it (a layout that fits, or a .scroll-x box)`);
    }
    if (box.right > screenWidth + 1 && !inScroller(el)) {
      pastEdge.add(el);
      if (!pastEdge.has(el.parentElement)) {
        problems.push(`cut off: ${name(el)} ends ${Math.round(box.right - screenWidth)}px past the screen's right edge`);
      }
    }
  }
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

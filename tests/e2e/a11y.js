// Accessibility checks run inside the page by tests/e2e/test_accessibility.py.
// Returns a list of problems: unlabelled fields, small tap targets, low text contrast.
() => {
  const problems = [];
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none";
  };
  // 1. Every field has a label.
  for (const el of document.querySelectorAll("input, select, textarea")) {
    if (el.type === "hidden" || !visible(el)) continue;
    const labelled = (el.labels && el.labels.length) || el.getAttribute("aria-label") || el.getAttribute("aria-labelledby");
    if (!labelled) problems.push(`unlabelled field ${el.name || el.id}`);
  }
  // 2. Buttons and button-like links are at least 44 x 44 CSS pixels.
  for (const el of document.querySelectorAll("button, .button, summary, input[type=radio], input[type=checkbox]")) {
    if (!visible(el) || el.closest(".sr-only")) continue;
    let box = el.getBoundingClientRect();
    if (el.matches("input[type=radio], input[type=checkbox]")) {
      const label = el.closest("label");
      if (label) box = label.getBoundingClientRect();
    }
    if (box.height < 43.5 || box.width < 43.5) {
      problems.push(`small target (${Math.round(box.width)}x${Math.round(box.height)}): ${(el.textContent || el.name || "").trim().slice(0, 40)}`);
    }
  }
  // 3. Text contrast (WCAG AA: 4.5:1, or 3:1 for large text).
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(",").map((x) => parseFloat(x));
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const background = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const bg = parse(getComputedStyle(node).backgroundColor);
      if (bg && bg.a > 0.5) return bg;
    }
    return parse(getComputedStyle(document.documentElement).backgroundColor) || { r: 255, g: 255, b: 255, a: 1 };
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!el || seen.has(el) || !walker.currentNode.textContent.trim() || !visible(el)) continue;
    if (el.closest("svg, .sr-only, .skip, option")) continue;
    seen.add(el);
    const style = getComputedStyle(el);
    const fg = parse(style.color);
    if (!fg) continue;
    const bg = background(el);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && parseInt(style.fontWeight, 10) >= 700);
    if (ratio < (large ? 3 : 4.5) - 0.01) {
      problems.push(`contrast ${ratio.toFixed(2)} for "${walker.currentNode.textContent.trim().slice(0, 30)}"`);
    }
  }
  // 4. Nothing wider than the screen (tables scroll inside their own box).
  if (document.documentElement.scrollWidth > window.innerWidth + 1) {
    problems.push(`page is ${document.documentElement.scrollWidth}px wide on a ${window.innerWidth}px screen`);
  }
  return problems;
}

// Layout checks run inside the page by tests/e2e/test_layout.py (a phone 360 or 412 px wide).
// Returns a list of problems, each naming the element:
//  1. clipped: an element that hides what overflows it (overflow hidden or clip, or an
//     ellipsis) holds more than it shows;
//  2. overlapping: two pieces of text or controls (not one inside the other) cover each other,
//     or a list's bullet lands on the text of another item;
//  3. outside the viewport: something reaches past the screen's edges, unless it sits in a
//     sideways scroll container that says it scrolls (data-scroll-cue naming a visible hint);
//     a scroll container that scrolls without such a cue is a problem itself.
// Screen-reader-only text (.sr-only) and hidden elements are skipped.
() => {
  const problems = [];
  const viewport = document.documentElement.clientWidth;
  const seen = new Set();
  const report = (text) => { if (!seen.has(text)) { seen.add(text); problems.push(text); } };
  const hiddenStyle = (el) => {
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.display === "none" || style.visibility === "hidden" || node.classList.contains("sr-only")) return true;
      // The skip link waits off the screen until it has the focus.
      if (node.classList.contains("skip") && !node.matches(":focus")) return true;
      if (node.tagName === "DETAILS" && !node.open && node !== el) {
        // Only the summary of a closed details shows.
        const summary = node.querySelector(":scope > summary");
        if (!summary || !summary.contains(el)) return true;
      }
    }
    return false;
  };
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && !hiddenStyle(el);
  };
  const describe = (el) => {
    const text = (el.innerText || el.value || el.getAttribute("aria-label") || "").replace(/\s+/g, " ").trim();
    const id = el.id ? `#${el.id}` : "";
    const cls = typeof el.className === "string" && el.className.trim() ? `.${el.className.trim().split(/\s+/).join(".")}` : "";
    return `<${el.tagName.toLowerCase()}${id}${cls}> "${text.slice(0, 40)}"`;
  };
  const scroller = (el) => {
    for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
      const overflow = getComputedStyle(node).overflowX;
      if (overflow === "auto" || overflow === "scroll") return node;
    }
    return null;
  };
  const cueShown = (container) => {
    const id = container.dataset.scrollCue;
    const cue = id && document.getElementById(id);
    return Boolean(cue && shown(cue));
  };
  const all = [...document.body.querySelectorAll("*")].filter(
    (el) => !["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "BR", "OPTION"].includes(el.tagName) && !el.closest("svg > *")
  );
  const visible = all.filter(shown);

  // 1. Clipped text or controls.
  for (const el of visible) {
    if (["INPUT", "TEXTAREA", "SELECT", "IMG", "svg", "CANVAS"].includes(el.tagName)) continue;
    const style = getComputedStyle(el);
    const hides = (v) => v === "hidden" || v === "clip";
    const ellipsis = style.textOverflow === "ellipsis";
    if ((hides(style.overflowX) || ellipsis) && el.scrollWidth > el.clientWidth + 1) {
      report(`clipped sideways (${el.scrollWidth} px in ${el.clientWidth} px): ${describe(el)}`);
    }
    if (hides(style.overflowY) && el.scrollHeight > el.clientHeight + 1) {
      report(`clipped at the bottom (${el.scrollHeight} px in ${el.clientHeight} px): ${describe(el)}`);
    }
  }

  // 2. Overlaps: pieces of text (a box per line) and controls.
  const pieces = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const parent = node.parentElement;
    if (!parent || !shown(parent) || parent.closest("button, a.button, summary, select, option, svg, textarea")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const box of range.getClientRects()) {
      if (box.width > 0.5 && box.height > 0.5) pieces.push({ el: parent, node, box });
    }
  }
  const controls = visible.filter((el) => el.matches(
    "input:not([type=hidden]), select, textarea, button, a.button, summary, img, svg"
  ) && !el.closest("svg *"));
  for (const el of controls) {
    if (el.matches("input[type=radio], input[type=checkbox]") && el.closest("label")) {
      pieces.push({ el, node: el, box: el.getBoundingClientRect() });
    } else {
      pieces.push({ el, node: el, box: el.getBoundingClientRect() });
    }
  }
  const related = (a, b) => a.node === b.node || a.el.contains(b.el) || b.el.contains(a.el);
  const slack = 2; // line boxes of tight text may touch by a pixel or two
  for (let i = 0; i < pieces.length; i += 1) {
    for (let j = i + 1; j < pieces.length; j += 1) {
      const a = pieces[i];
      const b = pieces[j];
      const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
      const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
      if (x <= slack || y <= slack || related(a, b)) continue;
      // A sticky column covers what scrolls under it only once scrolled; at rest they do not meet.
      report(`overlap (${Math.round(x)}x${Math.round(y)} px): ${describe(a.el)} and ${describe(b.el)}`);
    }
  }

  // A list's bullets sit outside its items: one must not land on the text of another.
  for (const li of visible) {
    const style = getComputedStyle(li);
    if (style.display !== "list-item" || style.listStyleType === "none" || style.listStylePosition !== "outside") continue;
    const box = li.getBoundingClientRect();
    const size = parseFloat(style.fontSize);
    const line = parseFloat(style.lineHeight) || size * 1.45;
    const marker = { left: box.left - size * 1.1, right: box.left - 2, top: box.top, bottom: box.top + line };
    for (const piece of pieces) {
      if (li.contains(piece.el)) continue;
      const x = Math.min(marker.right, piece.box.right) - Math.max(marker.left, piece.box.left);
      const y = Math.min(marker.bottom, piece.box.bottom) - Math.max(marker.top, piece.box.top);
      if (x > slack && y > slack) report(`a bullet lands on ${describe(piece.el)} (the bullet of ${describe(li)})`);
    }
  }

  // 3. Outside the viewport, or scrolling sideways without a cue.
  if (document.documentElement.scrollWidth > viewport + 1) {
    report(`the page scrolls sideways: ${document.documentElement.scrollWidth} px in ${viewport} px`);
  }
  for (const el of visible) {
    const style = getComputedStyle(el);
    if ((style.overflowX === "auto" || style.overflowX === "scroll") && el.scrollWidth > el.clientWidth + 1 && !cueShown(el)) {
      report(`scrolls sideways (${el.scrollWidth} px in ${el.clientWidth} px) with nothing to say so: ${describe(el)}`);
    }
  }
  for (const piece of pieces) {
    const { box, el } = piece;
    if (box.left >= -1 && box.right <= viewport + 1) continue;
    const container = scroller(el);
    // In a scroll box: reported once above for the box when it has no cue.
    if (container) continue;
    report(`outside the screen (${Math.round(box.left)}..${Math.round(box.right)} px): ${describe(el)}`);
  }
  return problems;
}

// Layout checks run inside the page by tests/e2e/test_layout.py (a phone 360 or 412 px wide).
// Returns a list of problems, each naming the element:
//  1. clipped: an element that hides what overflows it (overflow hidden or clip, or an
//     ellipsis) holds more than it shows;
//  2. overlapping: two pieces of text or controls (not one inside the other) cover each other,
//     or a list's bullet lands on the text of another item;
//  3. outside the viewport: something reaches past the screen's edges, unless it sits in a
//     sideways scroll container that says it scrolls (data-scroll-cue naming a visible hint);
//     a scroll container that scrolls without such a cue is a problem itself;
//  4. the round-by-round table needs sideways scrolling (any number of players);
//  5. a column header breaks inside a word ("Wo/n"; a player's name, th.name, may);
//  6. a button's text is wider than the button, or its last line is a number or mark alone;
//  7. a tap target (link, button, field, summary, a radio's or checkbox's label) is under 44 px
//     tall or wide, but for a link inside a sentence.
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

  // 2. Overlaps: pieces of text (a box per line) and controls. A bar stuck to the foot of the
  // screen (the round form's Save) floats over the form while it scrolls, by design; the pieces
  // are measured with the page scrolled to its end, where such a bar rests in its own place, so
  // that the form must leave it room there.
  const scrolledFrom = window.scrollY;
  window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" });
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
  window.scrollTo({ top: scrolledFrom, behavior: "instant" });

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
  // 4. The round-by-round table shows every column (every total) without scrolling sideways,
  //    for any number of players (issue 36, item 2).
  for (const table of visible.filter((el) => el.matches("table.board"))) {
    const box = table.parentElement;
    const width = table.getBoundingClientRect().width;
    if (width > box.clientWidth + 1 || box.scrollWidth > box.clientWidth + 1) {
      report(`the round-by-round table needs sideways scrolling (${Math.round(width)} px in ${box.clientWidth} px): ${describe(table)}`);
    }
  }

  // The lines of an element's own text, as strings (a line per distinct top of its letters).
  const lines = (el) => {
    const found = [];
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      if (!shown(node.parentElement)) continue;
      const range = document.createRange();
      for (let i = 0; i < node.textContent.length; i += 1) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect || rect.width === 0) continue;
        const last = found[found.length - 1];
        if (last && Math.abs(rect.top - last.top) < rect.height / 2) last.text += node.textContent[i];
        else found.push({ top: rect.top, text: node.textContent[i] });
      }
    }
    return found.map((line) => line.text.trim()).filter(Boolean);
  };

  // 5. A column header breaks between words, never inside one ("Wo/n", issue 36 item 9).
  // A header that is a player's name (th.name: the print view's) may break where it must.
  for (const th of visible.filter((el) => el.matches("th[scope=col], thead th") && !el.matches(".name"))) {
    const found = lines(th);
    for (let i = 1; i < found.length; i += 1) {
      const before = found[i - 1];
      const after = found[i];
      if (/[\p{L}\p{N}]$/u.test(before) && /^[\p{L}\p{N}]/u.test(after)) {
        const end = before.split(/\s/).pop();
        const start = after.split(/\s/)[0];
        // Two lines that are one word cut in two (the header's text has the whole word).
        if (th.textContent.replace(/\s+/g, " ").includes(end + start)) {
          report(`a column header breaks inside a word ("${end}/${start}"): ${describe(th)}`);
        }
      }
    }
  }

  // 6. A button's words fit inside it ("Dominos" in its toggle), and its last line is never a
  //    number or a mark alone ("Enregistrer la manche / 5"): issue 36 item 31.
  for (const el of controls.filter((c) => c.matches("button, a.button, summary, label.button"))) {
    if (el.scrollWidth > el.clientWidth + 1) {
      report(`text wider than its button (${el.scrollWidth} px in ${el.clientWidth} px): ${describe(el)}`);
    }
    const found = lines(el);
    if (found.length > 1 && /^[\p{N}\p{S}\p{P}]{1,3}$/u.test(found[found.length - 1])) {
      report(`"${found[found.length - 1]}" alone on the last line of ${describe(el)}`);
    }
  }

  // 7. Every tap target is at least 44 px tall and wide (issue 36 item 13): links, buttons,
  //    fields, a details' summary. A link inside a sentence (text on its line either side) is
  //    the exception WCAG 2.5.8 makes for inline links.
  const inSentence = (a) => {
    const block = a.parentElement;
    if (!block) return false;
    const own = (block.innerText || "").replace(/\s+/g, " ").trim();
    const text = (a.innerText || "").replace(/\s+/g, " ").trim();
    return own.length > text.length + 1 && getComputedStyle(a).display === "inline";
  };
  const targets = visible.filter((el) => el.matches(
    "a[href], button, input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select, textarea, summary, label:has(> input[type=radio]), label:has(> input[type=checkbox])"
  ) && !el.closest("svg *"));
  for (const el of targets) {
    if (el.matches("a") && inSentence(el)) continue;
    const box = el.getBoundingClientRect();
    // A field kept in the page but drawn as its label (the photo's file input): the label is
    // the target.
    if (box.width <= 2 && box.height <= 2 && el.labels && el.labels.length) continue;
    if (box.height < 43.5 || box.width < 43.5) {
      report(`a tap target smaller than 44 px (${Math.round(box.width)}x${Math.round(box.height)} px): ${describe(el)}`);
    }
  }
  return problems;
}

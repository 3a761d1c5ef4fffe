// Attention Lab's frame script: static code, no user text. app.py loads it once per page run
// (st.html with unsafe_allow_javascript: DOMPurify drops a script whose text holds "<" and a
// letter, so none appears here); its settings come from the data-* attributes of
// #al-frame, which app.py writes from ui/text.py. What it does, for every page:
//   - the html element's lang follows the UI language (screen readers pick their voice by it);
//   - the main area itself and plotly's toolbar buttons leave the Tab order (the toolbar still shows on hover and on
//     focus, and the PNG export stays in it); Streamlit's "Fullscreen" button speaks the UI
//     language; Streamlit's skip link too;
//   - a formula, code or table box that overflows sideways gets tabindex=0, a name and the
//     .al-scrolls class (a scroll shadow in style.css), so a keyboard can scroll it (axe
//     scrollable-region-focusable) and everyone sees that it scrolls;
//   - a touch that starts on a plotly chart never reaches plotly's drag handler, so a swipe
//     scrolls the page on a phone, whatever the figure's drag mode.
(() => {
  "use strict";
  const settings = () => {
    const el = document.getElementById("al-frame");
    return el ? el.dataset : {};
  };
  const SCROLLERS = [
    ".katex-display",
    "[data-testid='stCode'] pre",
    "[data-testid='stMarkdownContainer'] pre",
    "[data-testid='stMarkdownContainer'] .al-table",
    "[data-testid='stTable']",
    "[data-testid='stTable'] > div",  // the box inside it that scrolls (a wide table on a phone)
  ].join(",");

  function language(cfg) {
    if (cfg.lang && document.documentElement.lang !== cfg.lang) {
      document.documentElement.lang = cfg.lang;
    }
    // The main area is a Tab stop of its own before its first widget; the skip link can
    // still focus it (tabindex -1), and keys scroll it from any widget inside.
    const main = document.querySelector("[data-testid='stMain'][tabindex='0']");
    if (main) main.setAttribute("tabindex", "-1");
    const skip = document.querySelector("[data-testid='stSkipToContent']");
    const name = skip && chrome(cfg)["Skip to main content"];
    if (name && skip.textContent !== name) skip.textContent = name;
  }

  // Streamlit's and plotly's own English names and hints (aria-label, tooltips, placeholders)
  // in the UI language: cfg.chrome maps each English string to its translation; "Help for X"
  // is a pattern. The English original is kept, so switching back restores it.
  const ATTRS = ["aria-label", "data-title", "placeholder", "title"];
  let chromeSource = null;
  let chromeTable = {};
  function chrome(cfg) {
    if (cfg.chrome !== chromeSource) {
      chromeSource = cfg.chrome;
      try {
        chromeTable = JSON.parse(cfg.chrome || "{}");
      } catch (err) {
        chromeTable = {};
      }
    }
    return chromeTable;
  }
  function translated(table, english) {
    if (Object.prototype.hasOwnProperty.call(table, english)) return table[english];
    const help = table["Help for {label}"];
    if (help && english.startsWith("Help for ")) {
      return help.replace("{label}", english.slice("Help for ".length));
    }
    return null;
  }
  function names(cfg) {
    const table = chrome(cfg);
    for (const el of document.querySelectorAll(ATTRS.map((a) => `[${a}]`).join(","))) {
      for (const attr of ATTRS) {
        const value = el.getAttribute(attr);
        if (value === null) continue;
        const key = `data-al-en-${attr}`;
        const stored = el.getAttribute(key);
        const english = stored !== null && el.getAttribute(`data-al-to-${attr}`) === value
          ? stored
          : value;
        const name = translated(table, english);
        if (name === null || name === value) continue;
        el.setAttribute(key, english);
        el.setAttribute(`data-al-to-${attr}`, name);
        el.setAttribute(attr, name);
      }
    }
  }

  function toolbars() {
    for (const button of document.querySelectorAll(".modebar-btn:not([tabindex='-1'])")) {
      button.setAttribute("tabindex", "-1");
    }
  }

  function unmark(box) {
    const wrapper = box.parentElement && box.parentElement.closest("[data-al-tab='0']");
    if (wrapper) {
      delete wrapper.dataset.alTab;
      wrapper.setAttribute("tabindex", "0");
    }
    delete box.dataset.alScroll;
    box.classList.remove("al-scrolls");
    box.removeAttribute("tabindex");
    box.removeAttribute("role");
    box.removeAttribute("aria-label");
  }

  function scrollers(cfg) {
    for (const box of document.querySelectorAll(SCROLLERS)) {
      const extra = box.scrollWidth - box.clientWidth;
      if (extra > 2) {  // scrolls for real: reachable by keyboard, named, shadowed
        if (box.dataset.alClip === "1") {
          delete box.dataset.alClip;
          box.style.removeProperty("overflow-x");
        }
        if (box.dataset.alScroll !== "1") {
          box.dataset.alScroll = "1";
          box.classList.add("al-scrolls");
          if (!box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
          box.setAttribute("role", "group");  // a group, not a region: no landmark per box
          // st.code's wrapper is a Tab stop of its own that cannot scroll the box: one is enough.
          const wrapper = box.parentElement && box.parentElement.closest("[data-testid='stCode']");
          if (wrapper && wrapper.getAttribute("tabindex") === "0") {
            wrapper.dataset.alTab = "0";
            wrapper.setAttribute("tabindex", "-1");
          }
        }
        box.setAttribute("aria-label", cfg.scrolls || "Scrolls sideways");
      } else {
        if (box.dataset.alScroll === "1") unmark(box);
        if (extra > 0 && box.dataset.alClip !== "1") {
          // KaTeX rounds a formula 1-2 px wider than its box: that is no scroller (and no Tab
          // stop); clip the sliver instead.
          box.dataset.alClip = "1";
          box.style.setProperty("overflow-x", "hidden");
        }
      }
    }
  }

  let queued = false;
  function apply() {
    queued = false;
    const cfg = settings();
    language(cfg);
    names(cfg);
    toolbars();
    scrollers(cfg);
  }
  function schedule() {
    if (!queued) {
      queued = true;
      requestAnimationFrame(apply);
    }
  }

  if (window.__attentionLabFrame) {
    window.__attentionLabFrame();  // a rerun wrote new settings: apply them now
    return;
  }
  window.__attentionLabFrame = schedule;
  // Hover labels come and go under the pointer: no reason to look at the page again for them.
  const quiet = (record) => record.target instanceof Element
    && record.target.closest(".hoverlayer, .modebar-container .modebar-group");
  new MutationObserver((records) => {
    if (!records.every(quiet)) schedule();
  }).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", schedule);
  if (document.fonts) {  // a web font that arrives late widens formulas without a DOM change
    document.fonts.addEventListener("loadingdone", schedule);
    document.fonts.ready.then(schedule);
  }
  document.addEventListener(
    "touchstart",
    (event) => {
      const target = event.target;
      if (target instanceof Element && target.closest(".js-plotly-plot .draglayer")) {
        event.stopPropagation();  // plotly's drag handler would preventDefault the scroll
      }
    },
    { capture: true, passive: true },
  );
  schedule();
})();

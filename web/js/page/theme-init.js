// Applies the remembered theme and the level view (?level=, else remembered) before the first
// paint (a classic script inline at the top of <head>, so the page never flashes the wrong colours
// or level). The theme toggle (reading-controls.js) and the level switch (reading-view.js) write the
// same keys. The build inlines this file's text unchanged: the site's policy allows it by its hash.
(function applyStoredTheme() {
  // A page with an opaque origin (a frame sandboxed without allow-same-origin, or a file opened from
  // disk) cannot load module scripts, which need CORS, nor keep storage: the lesson's single file
  // beside the page carries everything inline, so such a page goes there, with its address's
  // settings. The site's pages name it on this script (data-single-file); the single file, which
  // carries this script too, names nothing and never redirects.
  var single = document.currentScript && document.currentScript.getAttribute('data-single-file');
  if (self.origin === 'null' && single) {
    location.replace(single + location.search + location.hash);
    return;
  }
  var levels = ['all', '1', '2'];
  var level = new URLSearchParams(location.search).get('level');
  // ?theme=light|dark|auto (a course page's frame) wins over the stored choice; auto follows the system.
  var asked = /[?&]theme=(light|dark|auto)(&|$)/.exec(location.search);
  if (asked && asked[1] !== 'auto') document.documentElement.setAttribute('data-theme', asked[1]);
  try {
    var theme = localStorage.getItem('positional-lesson:theme');
    if (!asked && (theme === 'light' || theme === 'dark')) document.documentElement.setAttribute('data-theme', theme);
    if (levels.indexOf(level) < 0) level = localStorage.getItem('positional-lesson:level');
  } catch (error) {
    // Storage may be unavailable (file://, privacy settings, third-party frames): the system
    // theme and both levels apply.
  }
  if (levels.indexOf(level) >= 0) document.documentElement.setAttribute('data-level-view', level);
  if (/[?&]embed=/.test(location.search)) document.documentElement.classList.add('embed');
  // lesson.css skips the layout of far blocks while the page loads (main.js lets them in); main.js
  // clears is-loading (read by one rule, on the root alone) once the live numbers are in and all are laid out.
  var root = document.documentElement;
  root.classList.add('lazy-layout', 'is-loading');
  // The page's modules run before DOMContentLoaded. Where none ran (a host that sends them with a
  // type browsers refuse, a blocked request), nothing would ever let the skipped blocks in, and a
  // skipped block is partly missing from the accessibility tree: the whole page is laid out instead.
  document.addEventListener('DOMContentLoaded', function () {
    if (!root.hasAttribute('data-scripts')) root.classList.remove('lazy-layout', 'is-loading');
  });
})();

// Applies the remembered theme before the first paint (a classic script in <head>, so the page
// never flashes the wrong colours). The toggle in main.js writes the same key.
(function applyStoredTheme() {
  // ?theme=light|dark|auto (a course page's frame) wins over the stored choice; auto follows the system.
  var asked = /[?&]theme=(light|dark|auto)(&|$)/.exec(location.search);
  if (asked) {
    if (asked[1] !== 'auto') document.documentElement.setAttribute('data-theme', asked[1]);
  } else {
    try {
      var theme = localStorage.getItem('positional-lesson:theme');
      if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme);
    } catch (error) {
      // Storage may be unavailable (file://, privacy settings): the system theme applies.
    }
  }
  if (/[?&]embed=/.test(location.search)) document.documentElement.classList.add('embed');
  // Cleared by main.js once the live numbers are in and every section is laid out (see lesson.css).
  document.documentElement.classList.add('is-loading');
})();

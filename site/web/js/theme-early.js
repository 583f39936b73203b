// A classic script in every page's head, run before the first paint: applies the colour scheme the
// player chose (js/theme.js), so a dark page never flashes light. Without a choice the CSS follows
// the system (prefers-color-scheme).
(function applyTheme() {
  try {
    var theme = JSON.parse(localStorage.getItem("site.theme"));
    if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  } catch (error) {
    // storage refused: follow the system
  }
})();

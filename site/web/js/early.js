// A classic script in every page's head, run before the first paint: applies the colour scheme the
// player chose (js/theme.js), so a dark page never flashes light; without a choice the CSS follows
// the system (prefers-color-scheme). And entering the site at its address (a bookmark, a typed
// address, the installed app, whose start is ./) opens the game played last: the first page of a
// tab that is the site's root without a game in its address goes on to Naked Diagonal's page when
// that was the game chosen last (js/frame.js keeps it). Links inside the site go where they point.
(function early() {
  var root = document.documentElement;
  try {
    var theme = JSON.parse(localStorage.getItem("site.theme"));
    if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  } catch (error) {
    // storage refused: follow the system
  }
  try {
    var entered = sessionStorage.getItem("site.entered");
    sessionStorage.setItem("site.entered", "1");
    var last = JSON.parse(localStorage.getItem("site.game"));
    if (!entered && root.dataset.entry === "root" && !location.hash && last === "nd") {
      location.replace("nd.html" + location.search);
    }
  } catch (error) {
    // storage refused: stay on this page
  }
})();

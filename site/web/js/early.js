// A classic script in every page's head, run before the first paint: applies the colour scheme the
// player chose (js/theme.js), so a dark page never flashes light; without a choice the CSS follows
// the system (prefers-color-scheme). And entering the site at its address (a bookmark, a typed
// address, the installed app, whose start is ./) opens the game played last: the first page of a
// tab that is the site's root without a game in its address goes on to Naked Diagonal's page when
// that was the game chosen last (js/frame.js keeps it). Links inside the site go where they point.
// And a page that runs Python starts its worker (below).
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
      return;
    }
  } catch (error) {
    // storage refused: stay on this page
  }
  // A page that runs Python (data-worker) starts its worker here, before its modules load: on a slow
  // phone they take the page's thread for a second, and Python's download waits for the worker.
  // js/rpc.js takes the worker over with the events it sent meanwhile.
  try {
    if (root.dataset.worker !== undefined && root.dataset.game && window.Worker) {
      var url = new URL("js/worker.js?game=" + root.dataset.game, document.baseURI).href;
      var worker = new Worker(url, { type: "module" });
      var events = [];
      var keep = function (event) {
        events.push(event);
      };
      worker.addEventListener("message", keep);
      worker.addEventListener("error", keep);
      window.unitileWorker = { url: url, worker: worker, events: events, keep: keep };
    }
  } catch (error) {
    // the page's modules start it
  }
})();

// The colour scheme toggle of every page: automatic (the system's), light or dark, kept for the
// whole site (both games). js/early.js applies the choice before the page is drawn.
import { Store } from "./storage.js";

const THEMES = ["auto", "light", "dark"];
const NAMES = { auto: "Auto", light: "Light", dark: "Dark" };
const store = new Store("site");
const dark = window.matchMedia("(prefers-color-scheme: dark)");

export function currentTheme() {
  const theme = store.get("theme", "auto");
  return THEMES.includes(theme) ? theme : "auto";
}

/** "light" or "dark": what the page shows now. */
export function shownScheme() {
  const theme = currentTheme();
  if (theme !== "auto") return theme;
  return dark.matches ? "dark" : "light";
}

function apply(theme, button) {
  if (theme === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  const shown = shownScheme();
  document.documentElement.dataset.scheme = shown;
  if (!button) return;
  button.querySelector("#theme-name").textContent = NAMES[theme];
  button.dataset.theme = theme;
  const what = theme === "auto" ? `automatic (now ${shown})` : theme;
  button.setAttribute("aria-label", `Colour scheme: ${what}. Change`);
}

/** Bind the header's toggle: each press goes Auto, Light, Dark, Auto. */
export function bindThemeToggle(button) {
  apply(currentTheme(), button);
  dark.addEventListener("change", () => apply(currentTheme(), button));
  if (!button) return;
  button.addEventListener("click", () => {
    const next = THEMES[(THEMES.indexOf(currentTheme()) + 1) % THEMES.length];
    store.set("theme", next);
    apply(next, button);
  });
}

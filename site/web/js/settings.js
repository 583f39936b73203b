// The player's settings: defaults, kept in a Store, shown in form controls at once (before the game
// service is up) and changed by them. Any game's page can use it with its own defaults and controls.

export class Settings {
  /**
   * @param {import("./storage.js").Store} store
   * @param {string} key where they are kept
   * @param {object} defaults every setting's name and default value (booleans are checkboxes)
   */
  constructor(store, key, defaults) {
    this.store = store;
    this.key = key;
    this.defaults = defaults;
    this.values = { ...defaults };
    this.listeners = [];
    this.controls = {};
    const saved = store.get(key, {});
    for (const name of Object.keys(defaults)) {
      if (saved && typeof saved[name] === typeof defaults[name]) this.values[name] = saved[name];
    }
  }

  get(name) {
    return this.values[name];
  }

  /** Change a setting (by the page, not the player): saved and shown, but no listener is called. */
  set(name, value) {
    this.values[name] = value;
    this.store.set(this.key, this.values);
    this.show(name);
  }

  /** ``listener(name, value)`` after the player changed a setting. */
  onChange(listener) {
    this.listeners.push(listener);
  }

  /** Show each setting in its control (``{name: element}``) and follow the player's changes. */
  bind(controls) {
    this.controls = controls;
    for (const [name, element] of Object.entries(controls)) {
      this.show(name);
      element.addEventListener("change", () => {
        const value = typeof this.defaults[name] === "boolean" ? element.checked : element.value;
        this.set(name, value);
        for (const listener of this.listeners) listener(name, value);
      });
    }
  }

  show(name) {
    const element = this.controls[name];
    if (!element) return;
    if (typeof this.defaults[name] === "boolean") element.checked = this.values[name];
    else {
      element.value = this.values[name];
      if (element.value !== this.values[name]) {
        // A value the control does not offer (an old version's): back to the default.
        this.values[name] = this.defaults[name];
        element.value = this.values[name];
      }
    }
  }
}

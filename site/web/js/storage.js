// localStorage under one prefix, as JSON. Storage may be refused (private browsing, a full quota):
// then reads give the fallback and writes report false, and the site works for the visit.

export class Store {
  /** @param {string} prefix e.g. "unitile" (keys become "unitile.<key>") */
  constructor(prefix) {
    this.prefix = prefix;
  }

  key(name) {
    return `${this.prefix}.${name}`;
  }

  get(name, fallback = null) {
    try {
      const text = localStorage.getItem(this.key(name));
      return text === null ? fallback : JSON.parse(text);
    } catch {
      return fallback;
    }
  }

  set(name, value) {
    try {
      localStorage.setItem(this.key(name), JSON.stringify(value));
      return true;
    } catch {
      return false;
    }
  }

  remove(name) {
    try {
      localStorage.removeItem(this.key(name));
    } catch {
      // nothing stored, nothing to remove
    }
  }

  /** Call ``listener(value)`` when another tab of the site changes ``name``. */
  watch(name, listener) {
    window.addEventListener("storage", (event) => {
      if (event.key !== this.key(name) || event.storageArea !== localStorage) return;
      try {
        listener(event.newValue === null ? null : JSON.parse(event.newValue));
      } catch {
        // a value this version cannot read: ignore it
      }
    });
  }
}

// The worker client: starts the module Web Worker that runs Python and calls its service by name.
// Any game's page can use it; the worker answers {op, args} requests (see worker.js). The messages
// each way are typed in wire.js.
import { fileProblem } from "./hosting.js";

/** An error the service reported in one line for the player (a refused move, a bad record). */
export class UserError extends Error {}

/** The rejection of a call cancelled by the page (its late answer, if any, is dropped). */
export class Cancelled extends Error {}

export class WorkerClient {
  /**
   * @param {URL} url the worker module
   * @param {(text: string) => void} onProgress called with each loading message
   */
  constructor(url, onProgress = () => {}) {
    /** @type {Map<number, {resolve: (result: any) => void, reject: (error: Error) => void, op: string}>} */
    this.pending = new Map();
    this.nextId = 1;
    // The last 200 replies, for the benchmark: {op, ms, wall, hurried} (the worker's Python time, the
    // time from arrival to reply, and whether the deadline cut a search short).
    /** @type {{op: string, ms: number, wall: number, hurried: boolean}[]} */
    this.calls = [];
    /** @type {Worker} */
    this.worker = null;
    /** @type {Promise<import("./wire.js").Ready>} */
    this.ready = new Promise((resolve, reject) => {
      /** @param {MessageEvent} event */
      const message = (event) => {
        /** @type {import("./wire.js").FromWorker} */
        const data = event.data;
        if (data.type === "progress") onProgress(data.text);
        else if (data.type === "ready") resolve(data);
        else if (data.type === "failed") reject(new UserError(data.error));
        else if (data.type === "reply") this.receive(data);
      };
      /** @param {ErrorEvent} event */
      const error = async (event) => {
        // A worker whose module does not load (missing, or not sent as JavaScript) gets an error
        // event without a message: ask the server what it sends.
        const problem = event.message ? null : await fileProblem(url, "javascript", new URL("../", url));
        reject(new UserError(problem || event.message || "the worker could not start"));
      };
      const started = window.unitileWorker; // early.js's
      delete window.unitileWorker;
      const taken = started && started.url === url.href ? started : null; // for this module
      if (started && !taken) started.worker.terminate();
      this.worker = taken ? taken.worker : new Worker(url, { type: "module" });
      this.worker.addEventListener("message", message);
      this.worker.addEventListener("error", error);
      if (taken) {
        this.worker.removeEventListener("message", taken.keep);
        this.worker.removeEventListener("error", taken.keep);
        for (const event of taken.events) {
          if (event instanceof MessageEvent) message(event);
          else error(/** @type {ErrorEvent} */ (event));
        }
      }
    });
  }

  /** Requests sent and not answered yet. */
  get open() {
    return this.pending.size;
  }

  /**
   * Call ``op`` with ``args``; resolves with its result (the reply of ``op``, as the caller types
   * it), rejects with a UserError.
   * @template [T=any]
   * @param {string} op
   * @param {import("./wire.js").Args} [args]
   * @returns {Promise<T>}
   */
  call(op, args = {}) {
    return this.send(op, args).reply;
  }

  /**
   * As ``call``, with the call's id for ``cancel``: {id, reply}.
   * @template [T=any]
   * @param {string} op
   * @param {import("./wire.js").Args} [args]
   * @returns {{id: number, reply: Promise<T>}}
   */
  send(op, args = {}) {
    const id = this.nextId++;
    /** @type {Promise<T>} */
    const reply = new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, op });
    });
    /** @type {import("./wire.js").Call} */
    const message = { id, op, args };
    this.worker.postMessage(message);
    return { id, reply };
  }

  /** Abandon call ``id``: the worker drops its search between two slices, the call rejects with
   * Cancelled at once, and a late answer is ignored. Nothing happens once it has been answered.
   * @param {number} id
   */
  cancel(id) {
    const waiter = this.pending.get(id);
    if (!waiter) return;
    this.pending.delete(id);
    /** @type {import("./wire.js").Cancel} */
    const message = { cancel: id };
    this.worker.postMessage(message);
    waiter.reject(new Cancelled(`${waiter.op} cancelled`));
  }

  /** @param {import("./wire.js").Replied} data */
  receive(data) {
    const waiter = this.pending.get(data.id);
    this.pending.delete(data.id);
    if (!waiter) return;
    if (!data.ok) {
      waiter.reject(new UserError(/** @type {import("./wire.js").Refused} */ (data).error));
      return;
    }
    this.calls.push({ op: waiter.op, ms: data.ms, wall: data.wall, hurried: data.hurried });
    if (this.calls.length > 200) this.calls.shift();
    waiter.resolve(data.result);
  }
}

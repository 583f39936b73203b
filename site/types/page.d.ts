// For tsconfig.json: what the pages put on window for the browser tests and the benchmark
// (tests/browser, bench/browser.py), and nothing else.

interface Window {
  /** The page's read-only views and its worker client (play-page.js; puzzles.js has its own views). */
  unitile: {
    readonly state: unknown;
    readonly info?: unknown;
    readonly puzzle?: unknown;
    readonly tries?: number;
    timings?: object;
    calls?: { op: string; ms: number; wall: number; hurried: boolean }[];
    call(op: string, args?: Record<string, unknown>): Promise<unknown>;
    pendingCount(): number;
  };
  /** When Naked Diagonal's page drew its last ban (performance.now()). */
  unitileBanShown: () => number;
  /** The worker early.js started, with the events it sent before rpc.js took it over. */
  unitileWorker?: { url: string; worker: Worker; events: Event[]; keep: (event: Event) => void };
  /** The service worker's registration (sw-client.js). */
  unitileRegistration: ServiceWorkerRegistration;
}

// What browserops' page scripts use that the DOM library does not declare (tests/js/tsconfig.json).

// DevTools' command-line API: keylisteners.js and pending_save.js run through Runtime.evaluate with
// includeCommandLineAPI (browser/scripts.py run_devtools).
declare function getEventListeners(
  target: EventTarget,
): Record<string, Array<{ type: string; useCapture: boolean; listener: unknown }>>;

interface Window {
  // The Navigation API (Chromium): watch.js and banners.js see navigations start.
  navigation?: EventTarget & { transition: unknown | null; currentEntry?: { url: string } | null };
  // user_watch.js's placeholder for its DevTools binding, replaced by browser/page/user_watch.py before it is sent.
  __CDP_BINDING__?: (payload: string) => void;
}

// user_watch.js's placeholder for the policy's vocabulary (browserops/words.py js_vocabulary), replaced likewise.
declare const __VOCABULARY__: {
  sensitive: string;
  sensitiveCjk: string[];
  code: string;
  codeInputmodes: string[];
  autocomplete: string[];
};

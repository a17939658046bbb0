// Handing an element DevTools resolved over to Playwright, as a handle (an element inside a closed shadow root,
// which Playwright cannot find): see browser/scripts.py (PASS_ELEMENT, take_element).

// Runtime.callFunctionOn on the element (`this`) in the frame's main world: keep it under a one-off random name.
function passElement(key) { window[key] = this; }

// Evaluated by Playwright in the same frame's main world: the element left under `key`, the name deleted.
function takeElement(key) { const el = window[key]; delete window[key]; return el; }

// args: {id}. -> the element with that blind id (lib.js's byBlindId), or null: evaluated without returnByValue,
// so DevTools gets hold of the element itself.
function elementById(args) { return byBlindId(args.id); }

// Run through the DevTools protocol before a screenshot straight from Chromium (browser/page/reading.py), as
// Playwright does before its own: resolves once the document's web fonts are loaded, so text shows in its font.
function fontsReady() { return document.fonts.ready.then(() => 1); }

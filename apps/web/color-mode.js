// Runs before the first paint, so that a dark preference never flashes a light page.
// The app's colour-mode store (src/lib/color-mode.ts) takes over once it has loaded.
(() => {
  let preference = null;
  try {
    preference = localStorage.getItem('nuxt-color-mode');
  } catch {
    // Storage can be blocked (private modes); the system setting decides then.
  }
  const systemDark = matchMedia('(prefers-color-scheme: dark)').matches;
  const dark = preference === 'dark' || (preference !== 'light' && systemDark);
  document.documentElement.classList.toggle('dark', dark);
})();

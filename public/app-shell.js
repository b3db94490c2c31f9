// Runs before anything else on the page (a classic script in index.html's head, not a module):
// tells index.html's CSS which static shell to draw while the app's JavaScript downloads.
// `login`: /login's heading and its line; `public`: the other public screens' card; `area`:
// everything else (the signed-in areas, `/`). Keep the list in step with web/app/routes.ts
// (web/app/app-shell.test.tsx checks it).
(() => {
  const path = window.location.pathname.replace(/\/+$/, '') || '/';
  const isPublic =
    /^\/(signup|buyer-signup|forgot-password|reset-password|login\/verify)$/.test(path) ||
    path.startsWith('/account/');
  const shell = path === '/login' ? 'login' : isPublic ? 'public' : 'area';
  document.documentElement.setAttribute('data-shell', shell);
})();

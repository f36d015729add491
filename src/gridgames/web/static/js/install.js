// The page as an app: the service worker that shows the offline page (sw.js). The manifest
// is linked from each page's head.
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // Not an app then (a browser that refuses it): every page still works online.
  });
}

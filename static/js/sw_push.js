/* Turn notices in the service worker (imported by /sw.js with importScripts): show the push's
 * notice ({"title", "body", "url"}: players/notices.py), and on a tap focus a page of the site
 * already open at that address, else open it. */
"use strict";

self.addEventListener("push", (event) => {
  let data;
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { body: event.data ? event.data.text() : "" }; }
  const url = typeof data.url === "string" && data.url ? data.url : "/";
  event.waitUntil(self.registration.showNotification(data.title || "Your turn", {
    body: data.body || "",
    tag: "turn:" + url,  // a newer notice of the same game replaces the older one
    renotify: true,
    data: { url },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of open) {
      if (client.url === target && "focus" in client) return client.focus();
    }
    return self.clients.openWindow(target);
  })());
});

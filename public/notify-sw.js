// Custom Room's service worker (decision 044): shows each web push and opens its page when tapped.
// Pushes carry only the words and a link (never a room ID or password).
self.addEventListener('push', (event) => {
  let message = { title: 'Custom Room', body: '', url: '/notifications', tag: undefined };
  try {
    message = { ...message, ...event.data.json() };
  } catch {
    // A push without our JSON: show the default.
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      icon: '/favicon.svg',
      data: { url: message.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/notifications', self.location.origin);
  // Only our own pages: a link elsewhere opens the notifications list instead.
  const target = url.origin === self.location.origin ? url.href : new URL('/notifications', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const w of windows) if (w.url === target && 'focus' in w) return w.focus();
      return self.clients.openWindow(target);
    }),
  );
});

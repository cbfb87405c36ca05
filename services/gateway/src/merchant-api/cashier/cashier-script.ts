/**
 * The cashier page's only script, inlined under the page's CSP nonce (no external resources). Plain
 * ES2017 without modules so any phone browser runs it. It follows the order by polling the status
 * endpoint, backing off while nothing changes, counts down to expiredTime, copies the CLABE and the
 * amount, and once paid returns the payer to the shop after RETURN_DELAY_MS (or at once by the link).
 */
export const CASHIER_SCRIPT = String.raw`(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('cashier-data').textContent);
  var m = data.messages;
  var byId = function (id) { return document.getElementById(id); };
  var status = data.status;
  var phase = data.phase;
  var live = byId('live');
  var heading = byId('heading');
  var countdown = byId('f-countdown');
  var deadline = data.remainingMs === null ? null : Date.now() + data.remainingMs;
  var delay = 2000;
  var pollTimer = null;
  var redirecting = false;

  function two(n) { return (n < 10 ? '0' : '') + n; }
  function remaining(ms) {
    var total = Math.max(0, Math.floor(ms / 1000));
    var d = Math.floor(total / 86400);
    var clock = two(Math.floor((total % 86400) / 3600)) + ':' + two(Math.floor((total % 3600) / 60)) + ':' + two(total % 60);
    return d > 0 ? d + ' ' + m.days + ' ' + clock : clock;
  }

  function tick() {
    if (!countdown || deadline === null || phase !== 'open') return;
    var left = deadline - Date.now();
    countdown.textContent = remaining(left);
    if (left <= 0 && live.textContent !== m.expiring) {
      live.textContent = m.expiring;
      delay = 2000;
      schedule(0);
    }
  }

  function goBack(url) {
    if (redirecting || !/^https?:\/\//i.test(url)) return;
    redirecting = true;
    window.setTimeout(function () { window.location.assign(url); }, data.returnDelayMs);
  }

  function setLink(id, url) {
    var link = byId(id);
    if (!link) return;
    if (url && /^https?:\/\//i.test(url)) { link.href = url; link.hidden = false; }
    else { link.removeAttribute('href'); link.hidden = true; }
  }

  function show(next) {
    // Once paid, the way back is the return link; "back to the shop" would drop the payment's outcome.
    setLink('quit-link', next.phase === 'paid' ? null : next.quitUrl);
    if (next.remainingMs !== null && next.remainingMs !== undefined) deadline = Date.now() + next.remainingMs;
    if (next.status === status) return;
    status = next.status;
    phase = next.phase;
    document.body.setAttribute('data-status', status);
    if (phase === 'open') {
      live.textContent = status === 'progress' ? m.progress : m.waiting;
      return;
    }
    byId('open-panel').hidden = true;
    live.className = 'status ' + phase;
    if (phase === 'paid') {
      heading.textContent = m.paidHeading;
      live.textContent = m.paidHeading;
      byId('paid-panel').hidden = false;
      setLink('return-link', next.returnUrl);
      byId('returning').hidden = !next.returnUrl;
      if (next.returnUrl) goBack(next.returnUrl);
    } else {
      heading.textContent = m.endedHeading;
      live.textContent = m.endedHeading;
      byId('ended-reason').textContent = m.ended[status] || '';
      byId('ended-panel').hidden = false;
    }
    heading.focus();
  }

  function schedule(ms) {
    if (pollTimer !== null) window.clearTimeout(pollTimer);
    pollTimer = window.setTimeout(poll, ms);
  }

  function poll() {
    pollTimer = null;
    if (phase !== 'open') return;
    var request = new XMLHttpRequest();
    request.open('GET', data.statusUrl);
    request.setRequestHeader('accept', 'application/json');
    request.timeout = 10000;
    request.onload = function () {
      if (request.status === 200) {
        var before = status;
        show(JSON.parse(request.responseText));
        delay = status !== before ? 2000 : Math.min(delay * 1.25, 10000);
      } else if (request.status === 404) {
        return;
      } else {
        delay = Math.min(delay * 2, 30000);
      }
      schedule(delay);
    };
    request.onerror = request.ontimeout = function () {
      delay = Math.min(delay * 2, 30000);
      schedule(delay);
    };
    request.send();
  }

  function copied(button, ok) {
    byId('copy-status').textContent = ok ? m.copied : m.copyFailed;
    if (!ok) return;
    // The visible word and the accessible name change together, so a voice user can still name the button.
    var text = button.textContent;
    var name = button.getAttribute('aria-label');
    button.textContent = m.copied;
    button.removeAttribute('aria-label');
    window.setTimeout(function () {
      button.textContent = text;
      if (name) button.setAttribute('aria-label', name);
    }, 2000);
  }

  function copyText(button) {
    var text = button.getAttribute('data-copy');
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { copied(button, true); }, function () { fallback(button, text); });
    } else {
      fallback(button, text);
    }
  }

  function fallback(button, text) {
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'sr-only';
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    document.body.removeChild(area);
    button.focus();
    copied(button, ok);
  }

  var buttons = document.querySelectorAll('button[data-copy]');
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].addEventListener('click', function (event) { copyText(event.currentTarget); });
  }
  document.body.setAttribute('data-status', status);
  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'visible' && phase === 'open') { delay = 2000; schedule(0); }
  });
  if (phase === 'paid' && data.returnUrl) goBack(data.returnUrl);
  if (phase === 'open') {
    tick();
    window.setInterval(tick, 1000);
    schedule(delay);
  }
})();`;

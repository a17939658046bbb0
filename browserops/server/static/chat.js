// The chat page: WebSocket for the conversation, SSE for progress and screenshots. The token stays in
// memory only: it is removed from the address bar at once, and sent as a header where the API allows.
// Text from the agent or the page is untrusted: it is only ever set through textContent.
(() => {
  'use strict';
  const params = new URLSearchParams(location.search);
  const token = params.get('token') || '';
  const session = params.get('session') || 'default';
  history.replaceState(null, '', location.pathname + '?session=' + encodeURIComponent(session));

  const $ = (id) => document.getElementById(id);
  const messages = $('messages');
  const statusLine = $('status');
  const form = $('send-form');
  const input = $('message');
  const confirmBox = $('confirm');
  const shot = $('shot');
  const caption = $('shot-caption');
  const activity = $('activity');
  const q = 'session=' + encodeURIComponent(session) + '&token=' + encodeURIComponent(token);
  let role = 'viewer';
  let ws = null;
  let lastSeq = 0;
  let shotUrl = null;

  const WHO = { user: 'You', agent: 'Agent', system: 'Notice' };
  function addMessage(who, text, kind) {
    const li = document.createElement('li');
    li.className = who + (kind ? ' ' + kind : '');
    const label = document.createElement('span');
    label.className = 'who';
    label.textContent = WHO[who] + ': ';
    li.append(label, document.createTextNode(text));
    messages.append(li);
    $('log').scrollTop = $('log').scrollHeight;
  }

  function addActivity(text) {
    const li = document.createElement('li');
    li.textContent = text;
    activity.append(li);
    while (activity.children.length > 100) activity.firstElementChild.remove();
  }

  const STATUS = {
    idle: 'Status: ready.',
    running: 'Status: working…',
    error: 'Status: error — send a message to try again.',
  };
  function statusText(d) {
    if (d.status === 'waiting_user') {
      if (d.pending_kind === 'confirm') return 'Status: waiting for your confirmation.';
      if (d.pending_kind === 'manual') return 'Status: waiting for you to finish in the browser, then write “done”.';
      return 'Status: waiting for your reply.';
    }
    return STATUS[d.status] || 'Status: ' + d.status;
  }
  function setStatus(d) {
    statusLine.textContent = statusText(d);
    if (d.pending_kind !== 'confirm') hideConfirm(false);
  }

  function showConfirm(description) {
    if (role !== 'owner') return;
    $('confirm-text').textContent = 'The agent wants to: ' + description;
    confirmBox.hidden = false;
    $('yes').focus();
  }
  function hideConfirm(moveFocus) {
    if (confirmBox.hidden) return;
    const hadFocus = confirmBox.contains(document.activeElement);
    confirmBox.hidden = true;
    if (moveFocus || hadFocus) input.focus();
  }

  function altText(obs) {
    const items = (obs.items || []).slice(0, 10)
      .map((i) => [i.n, i.role, i.name].filter((x) => x !== null && x !== undefined && x !== '').join(' '));
    const where = obs.title ? 'Screenshot of “' + obs.title + '”.' : 'Screenshot of the page.';
    return where + (items.length ? ' Top numbered items: ' + items.join('; ') + '.' : ' No numbered items.');
  }

  async function refreshShot(obs) {
    if (!obs || !obs.screenshot) return;
    const r = await fetch('/screenshot/latest?session=' + encodeURIComponent(session), {
      headers: { Authorization: 'Bearer ' + token }, cache: 'no-store',
    });
    if (!r.ok) return;
    const url = URL.createObjectURL(await r.blob());
    if (shotUrl) URL.revokeObjectURL(shotUrl);
    shotUrl = url;
    shot.alt = altText(obs);
    shot.src = url;
    shot.hidden = false;
    caption.textContent = (obs.title || obs.url || '') + (obs.url && obs.title ? ' — ' + obs.url : '');
  }

  function send(payload) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      addMessage('system', 'Not connected yet; try again in a moment.', 'error');
      return false;
    }
    ws.send(JSON.stringify(payload));
    return true;
  }

  function applyRole() {
    const owner = role === 'owner';
    for (const el of [input, $('send'), $('stop')]) el.disabled = !owner;
    if (!owner) $('message-help').textContent = 'Read-only viewer: you can watch, not send or confirm.';
  }

  function applyState(s) {
    for (const m of s.history || []) if (m.role !== 'system' || m.text) addMessage(m.role, m.text);
    setStatus(s);
    if (s.last_observation) refreshShot(s.last_observation);
    if (s.pending_kind === 'confirm' && s.pending_action) showConfirm(s.pending_action.description);
  }

  function onChat(ev) {
    const d = ev.data || {};
    switch (ev.type) {
      case 'hello':
        role = d.role;
        applyRole();
        applyState(d.state);
        break;
      case 'agent_message':
        addMessage('agent', d.text, d.kind);
        break;
      case 'agent_question':
        addMessage('agent', d.text, d.kind);
        if (d.kind === 'confirm') showConfirm((d.pending && d.pending.description) || d.text);
        break;
      case 'status':
        setStatus(d);
        break;
      case 'error':
        if (!d.fatal || ev.seq === null) addMessage('system', 'Error: ' + d.error, 'error');
        break;
      default:
        break;
    }
  }

  function connectChat() {
    const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
    ws = new WebSocket(scheme + location.host + '/ws?' + q);
    ws.addEventListener('message', (e) => onChat(JSON.parse(e.data)));
    ws.addEventListener('close', () => {
      statusLine.textContent = 'Status: disconnected — reconnecting…';
      messages.replaceChildren();
      setTimeout(connectChat, 2000);
    });
  }

  function connectEvents() {
    const es = new EventSource('/events?' + q + '&after=' + lastSeq);
    const on = (type, fn) => es.addEventListener(type, (e) => {
      const ev = JSON.parse(e.data);
      lastSeq = Math.max(lastSeq, ev.seq);
      fn(ev.data || {});
    });
    on('observation', (d) => {
      addActivity('Looked at ' + (d.title || d.url || 'the page') + '.');
      refreshShot(d);
    });
    on('tool_call', (d) => addActivity('Step ' + d.step + ': ' + d.tool));
    on('tool_result', (d) => addActivity(d.tool + ': ' + (d.status === 'ok' ? 'done' : 'failed — ' + (d.error || d.code))));
    on('policy_request', (d) => addActivity('Needs confirmation: ' + d.description));
    on('policy_result', (d) => addActivity(d.approved ? 'Confirmed.' : 'Declined.'));
    on('manual_stop', () => addActivity('Stop requested.'));
    on('final', (d) => addActivity('Finished: ' + d.kind + ' after ' + d.steps + ' steps.'));
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text || role !== 'owner') return;
    if (send({ type: 'user_message', text })) {
      addMessage('user', text);
      input.value = '';
    }
  });
  const answer = (approved) => {
    if (send({ type: 'confirm', approved })) {
      addMessage('user', approved ? 'Yes' : 'No');
      hideConfirm(true);
    }
  };
  $('yes').addEventListener('click', () => answer(true));
  $('no').addEventListener('click', () => answer(false));
  $('stop').addEventListener('click', () => send({ type: 'stop' }));
  $('skip').addEventListener('click', (e) => { e.preventDefault(); input.focus(); });

  fetch('/api/state?session=' + encodeURIComponent(session), { headers: { Authorization: 'Bearer ' + token } })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error('HTTP ' + r.status))))
    .then((s) => {
      lastSeq = Math.max(0, s.last_seq - 20);
      connectEvents();
      connectChat();
    })
    .catch(() => { statusLine.textContent = 'Status: not authorised — open the URL printed by browserops serve.'; });
})();

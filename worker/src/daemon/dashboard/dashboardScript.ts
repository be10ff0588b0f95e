/**
 * /dashboard.js: the pages' only script, served by the worker (no build step, nothing from
 * another host). While a campaign sends it reads /campaigns.json every 2 s and writes each
 * card's figures again, without a reload; cancel asks in a dialog (the server asks on a
 * page of its own without script). Without it the pages read and work as served.
 */
export const DASHBOARD_JS = `'use strict';
(function () {
	document.addEventListener('submit', function (event) {
		var form = event.target;
		var ask = form.getAttribute && form.getAttribute('data-confirm');
		if (!ask) return;
		if (!window.confirm(ask)) {
			event.preventDefault();
			return;
		}
		var yes = document.createElement('input');
		yes.type = 'hidden';
		yes.name = 'confirm';
		yes.value = 'yes';
		form.appendChild(yes);
	});
	// A campaign sending, or one whose figures are being counted, is read again every 2 s.
	var cards = document.querySelectorAll('article.campaign');
	if (cards.length === 0) return;
	function n(v) {
		return v.toLocaleString('en-US');
	}
	function rate(v, of) {
		return of > 0 ? n(v) + ' (' + ((100 * v) / of).toFixed(1) + '%)' : n(v);
	}
	function when(iso) {
		return iso ? iso.replace('T', ' ').replace(/:\\d\\d(\\.\\d+)?Z$/, ' UTC') : '\\u2013';
	}
	function set(card, field, text) {
		var el = card.querySelector('[data-f="' + field + '"]');
		if (el && el.textContent !== text) el.textContent = text;
	}
	function controls(card, row) {
		var box = card.querySelector('[data-f="controls"]');
		if (!box) return;
		if (!row.open) {
			box.remove();
			return;
		}
		var toggle = box.querySelector('form[action$="/pause"], form[action$="/resume"]');
		if (!toggle) return;
		var want = row.paused ? 'resume' : 'pause';
		var action = toggle.getAttribute('action');
		if (action.slice(-want.length) === want) return;
		toggle.setAttribute('action', action.replace(/\\/(pause|resume)$/, '/' + want));
		var label = toggle.querySelector('button').firstChild;
		label.textContent = row.paused ? 'Resume' : 'Pause';
	}
	function update(row) {
		for (var i = 0; i < cards.length; i++) {
			var card = cards[i];
			if (card.getAttribute('data-name') !== row.name) continue;
			card.setAttribute('data-phase', row.phase);
			if (row.counting) card.setAttribute('data-counting', '1');
			else card.removeAttribute('data-counting');
			var phase = card.querySelector('[data-f="phase"]');
			phase.className = 'phase phase-' + row.phase;
			set(card, 'phase', row.phase);
			set(card, 'why', row.why);
			var bar = card.querySelector('[data-f="progress"]');
			bar.max = Math.max(1, row.toSend);
			bar.value = row.sent;
			bar.setAttribute('aria-label', row.name + ': sent ' + row.sent + ' of ' + row.toSend);
			set(card, 'sent', n(row.sent) + ' of ' + n(row.toSend));
			set(card, 'delivered', rate(row.delivered, row.sent));
			set(card, 'failed', rate(row.failed, row.sent));
			set(card, 'replied', rate(row.replied, row.sent));
			set(card, 'optedOut', rate(row.optedOut, row.sent));
			if (row.clicked !== undefined) set(card, 'clicked', rate(row.clicked, row.sent));
			if (row.cost !== undefined) set(card, 'cost', row.cost.toFixed(2));
			set(card, 'startedAt', when(row.startedAt));
			set(card, 'endedAt', when(row.endedAt));
			controls(card, row);
		}
	}
	function sending() {
		for (var i = 0; i < cards.length; i++)
			if (cards[i].getAttribute('data-phase') === 'sending' || cards[i].hasAttribute('data-counting'))
				return true;
		return false;
	}
	function later() {
		setTimeout(poll, sending() ? 2000 : 15000);
	}
	function poll() {
		if (document.hidden) return later();
		fetch('/campaigns.json', { headers: { accept: 'application/json' }, credentials: 'same-origin' })
			.then(function (res) {
				return res.ok ? res.json() : null;
			})
			.then(function (data) {
				if (data) data.campaigns.forEach(update);
			})
			.catch(function () {})
			.then(later);
	}
	later();
})();
`;

// The page of `cardkit serve`: sends the document to POST /v1/validate and
// shows the report: a summary, the diagnostics, and the source with the
// offending lines marked. Plain DOM, no framework: this file is served as it
// is, from the binary.
'use strict';

(() => {
  /** Height of a source line in pixels; `.line` in page.css has the same. */
  const LINE_HEIGHT = 20;
  /** Lines drawn above and below the visible ones. */
  const MARGIN_LINES = 40;
  /** Diagnostics listed at first, and added by each "Show more". */
  const PAGE_SIZE = 200;
  /** Characters of a source line drawn; longer lines are cut. */
  const MAX_LINE_CHARS = 2000;
  const JSON_LINES_NAME = /\.(jsonl|ndjson)$/i;
  const RANK = { error: 2, warning: 1 };
  const GLYPH = { error: '✖', warning: '▲' };
  const VERDICT = { valid: '✔', error: '✖' };

  const $ = (id) => document.getElementById(id);
  const ui = {
    form: $('form'),
    kind: $('kind'),
    name: $('name'),
    jsonLines: $('json-lines'),
    asOf: $('as-of'),
    strictVersion: $('strict-version'),
    denyUnknown: $('deny-unknown'),
    warnDeprecated: $('warn-deprecated'),
    allWarnings: $('all-warnings'),
    dropZone: $('drop-zone'),
    text: $('text'),
    validate: $('validate'),
    open: $('open'),
    file: $('file'),
    clear: $('clear'),
    status: $('status'),
    problem: $('problem'),
    panes: $('panes'),
    source: $('source'),
    sourceSpacer: $('source-spacer'),
    sourceWindow: $('source-window'),
    sourceMeta: $('source-meta'),
    diagnostics: $('diagnostics'),
    diagnosticsMeta: $('diagnostics-meta'),
    more: $('more'),
    moreText: $('more-text'),
    showMore: $('show-more'),
  };

  /** What is shown: the text as validated and the report's diagnostics. */
  const shown = {
    lines: [],
    /** Line number → { severity, messages } of the diagnostics on it. */
    marks: new Map(),
    diagnostics: [],
    listed: 0,
    /** The diagnostic chosen in the list, if any. */
    current: null,
    /** The lines drawn now: [first, end). */
    drawn: [0, 0],
    text: null,
  };
  let request = null;

  // ---- small helpers ----

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  const count = (n) => n.toLocaleString('en-US');
  const plural = (n, one, many) => `${count(n)} ${n === 1 ? one : many || one + 's'}`;
  const sum = (counts) => Object.values(counts || {}).reduce((a, b) => a + b, 0);

  /** A size in the units the command line's summaries use (kB and MB, of
   * 10^3 and 10^6 bytes). */
  function size(bytes) {
    if (bytes < 1000) return plural(bytes, 'byte');
    if (bytes < 1000 * 1000) return `${(bytes / 1000).toFixed(1)} kB`;
    return `${(bytes / 1000 / 1000).toFixed(1)} MB`;
  }

  /** The UTF-16 index of 1-based `column`, which counts characters. */
  function indexOfColumn(line, column) {
    let index = 0;
    for (let c = 1; c < column && index < line.length; c += 1) {
      const unit = line.charCodeAt(index);
      index += unit >= 0xd800 && unit < 0xdc00 ? 2 : 1;
    }
    return index;
  }

  // ---- status and problems ----

  function setStatus(kind, title, details) {
    ui.status.className = `status status-${kind}`;
    const line = element('p', 'status-line');
    if (VERDICT[kind]) line.append(element('span', 'verdict-icon', VERDICT[kind]));
    line.append(element('strong', 'verdict', title));
    if (details) line.append(element('span', 'status-details', details));
    ui.status.replaceChildren(line);
  }

  function showProblem(title, detail) {
    ui.problem.replaceChildren(element('strong', null, title));
    if (detail) ui.problem.append(element('p', null, detail));
    ui.problem.hidden = false;
  }

  function hideProblem() {
    ui.problem.hidden = true;
    ui.problem.replaceChildren();
  }

  function setBusy(busy) {
    ui.validate.disabled = busy;
    ui.validate.textContent = busy ? 'Validating…' : 'Validate';
    ui.status.setAttribute('aria-busy', String(busy));
  }

  // ---- the summary ----

  function showSummary(report) {
    const summary = report.summary;
    const errors = sum(summary.errors);
    const warnings = sum(summary.warnings);
    const unreadable = report.files.find((file) => file.error);
    const valid = report.files.every((file) => file.valid);
    let title;
    if (unreadable) title = 'Not read to its end';
    else if (!valid) title = 'Invalid';
    else if (warnings) title = 'Valid, with warnings';
    else title = 'Valid';
    const documents = summary.documents === 1
      ? '1 document'
      : `${plural(summary.documents, 'document')}: ${count(summary.valid)} valid, ${count(summary.invalid)} invalid`;
    const seconds = summary.seconds === undefined ? '' : ` in ${Math.round(summary.seconds * 1000)} ms`;
    setStatus(valid && !unreadable ? 'valid' : 'error', title,
      `${documents} · ${plural(errors, 'error')} · ${plural(warnings, 'warning')} · ${size(summary.bytes)}${seconds}`);

    const counts = element('ul', 'code-counts');
    counts.setAttribute('aria-label', 'Diagnostics by code');
    for (const [severity, byCode] of [['error', summary.errors], ['warning', summary.warnings]]) {
      for (const [code, n] of Object.entries(byCode || {})) {
        const item = element('li', `code-count is-${severity}`);
        item.append(element('span', 'sev-badge', severity), element('code', null, code),
          element('span', 'code-count-n', `× ${count(n)}`));
        counts.append(item);
      }
    }
    if (counts.childElementCount) ui.status.append(counts);
    if (unreadable) ui.status.append(element('p', 'status-note', `The body could not be read to its end: ${unreadable.error}`));
    const held = (report.suppressed || []).reduce((n, s) => n + s.total - s.shown, 0);
    if (held) {
      ui.status.append(element('p', 'status-note',
        `${plural(held, 'repeated warning')} counted but not listed; tick “List every warning” to list them.`));
    }
  }

  // ---- the diagnostics list ----

  function diagnosticItem(diagnostic, index) {
    const item = element('li', `diag is-${diagnostic.severity}`);
    const button = element('button', 'diag-button');
    button.type = 'button';
    button.dataset.index = String(index);
    const head = element('span', 'diag-head');
    head.append(
      element('span', 'sev-badge', diagnostic.severity),
      element('code', 'diag-code', diagnostic.code),
      element('span', 'diag-pos', `${diagnostic.line}:${diagnostic.column}`),
    );
    button.append(head, element('span', 'diag-message', diagnostic.message));
    if (diagnostic.suggestion) button.append(element('span', 'diag-suggestion', `Did you mean “${diagnostic.suggestion}”?`));
    button.append(element('code', 'diag-pointer', diagnostic.pointer || '(root)'));
    button.setAttribute('aria-label', `${diagnostic.severity} ${diagnostic.code} at line ${diagnostic.line}, column ${diagnostic.column}: ${diagnostic.message}`);
    item.append(button, explainer(diagnostic));
    return item;
  }

  // ---- explanations: of the diagnostic's code and of the field it names ----

  /** A disclosure that fetches, when first opened, what the service says of
   * the diagnostic's code and of the field at its pointer. */
  function explainer(diagnostic) {
    const details = element('details', 'diag-explain');
    details.append(element('summary', '', 'Explain'));
    const body = element('div', 'explain-body');
    details.append(body);
    details.addEventListener('toggle', () => {
      if (!details.open || details.dataset.loaded) return;
      details.dataset.loaded = 'true';
      body.replaceChildren(element('p', 'explain-wait', 'Loading…'));
      explain(diagnostic).then(
        (parts) => body.replaceChildren(...parts),
        () => body.replaceChildren(element('p', 'explain-error', 'The explanation could not be loaded.')),
      );
    });
    return details;
  }

  async function explain(diagnostic) {
    const parts = [];
    const code = await fetchJson(`v1/explain/code/${encodeURIComponent(diagnostic.code)}`);
    if (code.ok) {
      parts.push(element('h4', '', diagnostic.code));
      parts.push(element('p', '', code.body.meaning));
      parts.push(element('p', 'explain-fix', `To fix it: ${code.body.fix}`));
    }
    if (diagnostic.kind && diagnostic.pointer) {
      const params = new URLSearchParams({ pointer: diagnostic.pointer });
      const field = await fetchJson(`v1/explain/${encodeURIComponent(diagnostic.kind)}?${params}`);
      parts.push(element('h4', '', diagnostic.field || diagnostic.pointer));
      if (field.ok) {
        const lines = element('dl', 'explain-lines');
        for (const place of field.body.places) {
          for (const line of place.lines) lines.append(element('dt', '', line.label), element('dd', '', line.text));
        }
        parts.push(lines);
      } else {
        parts.push(element('p', '', field.body.detail || 'The spec defines no field here.'));
      }
    }
    return parts;
  }

  async function fetchJson(url) {
    const response = await fetch(url, { headers: { Accept: 'application/json' } });
    return { ok: response.ok, body: await response.json() };
  }

  function listMore() {
    const end = Math.min(shown.diagnostics.length, shown.listed + PAGE_SIZE);
    const fragment = document.createDocumentFragment();
    for (let i = shown.listed; i < end; i += 1) fragment.append(diagnosticItem(shown.diagnostics[i], i));
    ui.diagnostics.append(fragment);
    shown.listed = end;
    const rest = shown.diagnostics.length - end;
    ui.more.hidden = rest === 0;
    ui.moreText.textContent = `Showing the first ${count(end)} of ${count(shown.diagnostics.length)} diagnostics (and ${count(rest)} more).`;
    ui.showMore.textContent = `Show ${count(Math.min(rest, PAGE_SIZE))} more`;
  }

  function showDiagnostics(report) {
    shown.diagnostics = [];
    for (const file of report.files) {
      for (const document of file.documents) {
        // Each diagnostic keeps its document's kind, for its explanation.
        for (const diagnostic of document.diagnostics) shown.diagnostics.push({ ...diagnostic, kind: document.kind });
      }
    }
    shown.listed = 0;
    shown.current = null;
    ui.diagnostics.replaceChildren();
    const n = shown.diagnostics.length;
    ui.diagnosticsMeta.textContent = n ? `(${count(n)})` : '';
    if (n === 0) {
      ui.diagnostics.append(element('li', 'diag-none', 'No diagnostics: nothing to fix.'));
      ui.more.hidden = true;
      return;
    }
    listMore();
  }

  function choose(index) {
    const diagnostic = shown.diagnostics[index];
    if (!diagnostic) return;
    for (const old of ui.diagnostics.querySelectorAll('[aria-current]')) old.removeAttribute('aria-current');
    const button = ui.diagnostics.querySelector(`button[data-index="${index}"]`);
    if (button) button.setAttribute('aria-current', 'true');
    shown.current = diagnostic;
    scrollToLine(diagnostic.line);
  }

  // ---- the source view: only the lines in view (and a margin) are drawn ----

  function markLines() {
    shown.marks = new Map();
    for (const diagnostic of shown.diagnostics) {
      const mark = shown.marks.get(diagnostic.line);
      if (!mark) {
        shown.marks.set(diagnostic.line, { severity: diagnostic.severity, messages: [diagnostic.message] });
      } else {
        if (RANK[diagnostic.severity] > RANK[mark.severity]) mark.severity = diagnostic.severity;
        if (mark.messages.length < 5) mark.messages.push(diagnostic.message);
      }
    }
  }

  function showSource(text) {
    shown.text = text;
    shown.lines = text.split('\n');
    let widest = 0;
    for (const line of shown.lines) widest = Math.max(widest, line.length);
    const digits = String(shown.lines.length).length;
    ui.source.style.setProperty('--digits', String(digits));
    ui.sourceSpacer.style.height = `${shown.lines.length * LINE_HEIGHT}px`;
    ui.sourceSpacer.style.width = `calc(${digits + 4}ch + ${Math.min(widest, MAX_LINE_CHARS + 30)}ch + 2rem)`;
    ui.sourceMeta.textContent = `(${plural(shown.lines.length, 'line')}, ${count(shown.marks.size)} marked)`;
    ui.source.scrollTop = 0;
    ui.source.scrollLeft = 0;
    shown.drawn = [0, 0];
    drawSource(true);
  }

  /** The part of `line` to draw: all of it, or a cut around `column`. */
  function visiblePart(line, column) {
    if (line.length <= MAX_LINE_CHARS) return { before: '', text: line, after: '' };
    const at = column ? indexOfColumn(line, column) : 0;
    const start = Math.max(0, Math.min(at - MAX_LINE_CHARS / 2, line.length - MAX_LINE_CHARS));
    const end = start + MAX_LINE_CHARS;
    return {
      before: start > 0 ? `… ${count(start)} characters before · ` : '',
      text: line.slice(start, end),
      after: end < line.length ? ` · ${count(line.length - end)} more characters …` : '',
      start,
    };
  }

  function lineRow(number) {
    const line = shown.lines[number - 1].replace(/\r$/, '');
    const mark = shown.marks.get(number);
    const current = shown.current && shown.current.line === number ? shown.current : null;
    const row = element('div', 'line');
    row.dataset.line = String(number);
    const gutter = element('span', 'gutter');
    gutter.append(element('span', 'ln', String(number)));
    if (mark) {
      row.classList.add(`is-${mark.severity}`);
      const sign = element('span', 'sign', GLYPH[mark.severity]);
      sign.title = mark.messages.join('\n');
      gutter.append(sign);
      gutter.append(element('span', 'visually-hidden', ` ${mark.severity}`));
    }
    if (current) row.classList.add('is-current');
    row.append(gutter);
    const code = element('span', 'text');
    const part = visiblePart(line, current && current.column);
    if (part.before) code.append(element('span', 'cut', part.before));
    if (current) {
      const at = indexOfColumn(line, current.column) - (part.start || 0);
      const width = part.text.codePointAt(at) > 0xffff ? 2 : 1;
      code.append(part.text.slice(0, at));
      code.append(element('span', 'column-mark', part.text.slice(at, at + width) || ' '));
      code.append(part.text.slice(at + width));
    } else {
      code.append(part.text);
    }
    if (part.after) code.append(element('span', 'cut', part.after));
    row.append(code);
    return row;
  }

  function drawSource(force) {
    const total = shown.lines.length;
    const top = ui.source.scrollTop;
    const first = Math.max(0, Math.floor(top / LINE_HEIGHT) - MARGIN_LINES);
    const end = Math.min(total, Math.ceil((top + ui.source.clientHeight) / LINE_HEIGHT) + MARGIN_LINES);
    if (!force && first === shown.drawn[0] && end === shown.drawn[1]) return;
    const fragment = document.createDocumentFragment();
    for (let i = first; i < end; i += 1) fragment.append(lineRow(i + 1));
    ui.sourceWindow.replaceChildren(fragment);
    ui.sourceWindow.style.transform = `translateY(${first * LINE_HEIGHT}px)`;
    shown.drawn = [first, end];
  }

  function scrollToLine(number) {
    const target = (number - 1) * LINE_HEIGHT - (ui.source.clientHeight - LINE_HEIGHT) / 2;
    ui.source.scrollTop = Math.max(0, target);
    drawSource(true);
    const mark = ui.sourceWindow.querySelector('.column-mark');
    if (mark) mark.scrollIntoView({ block: 'nearest', inline: 'center' });
  }

  let drawPending = false;
  ui.source.addEventListener('scroll', () => {
    if (drawPending) return;
    drawPending = true;
    requestAnimationFrame(() => {
      drawPending = false;
      drawSource(false);
    });
  }, { passive: true });
  window.addEventListener('resize', () => {
    if (!ui.panes.hidden) drawSource(false);
  });

  // ---- validation ----

  function query() {
    const params = new URLSearchParams({ kind: ui.kind.value });
    const name = ui.name.value.trim();
    if (name) params.set('name', name);
    const asOf = ui.asOf.value.trim();
    if (asOf) {
      params.set('as_of', asOf);
      if (ui.strictVersion.checked) params.set('strict_version', 'true');
    }
    if (ui.denyUnknown.checked) params.set('deny_unknown_fields', 'true');
    if (ui.warnDeprecated.checked) params.set('warn', 'deprecated');
    if (ui.allWarnings.checked) params.set('warning_limit', '0');
    return params;
  }

  function clearResults() {
    ui.panes.hidden = true;
    shown.lines = [];
    shown.diagnostics = [];
    shown.marks = new Map();
    shown.text = null;
    ui.sourceWindow.replaceChildren();
    ui.diagnostics.replaceChildren();
  }

  async function problemOf(response) {
    const fallback = { title: `${response.status} ${response.statusText}`, detail: '' };
    try {
      const problem = await response.json();
      return { title: problem.title || fallback.title, detail: problem.detail || '' };
    } catch {
      return fallback;
    }
  }

  async function validate() {
    if (request) request.abort();
    const controller = new AbortController();
    request = controller;
    const text = ui.text.value;
    hideProblem();
    setBusy(true);
    setStatus('busy', 'Validating…', size(new Blob([text]).size));
    let response = null;
    try {
      response = await fetch(`v1/validate?${query()}`, {
        method: 'POST',
        headers: {
          'Content-Type': ui.jsonLines.checked ? 'application/x-ndjson' : 'application/json',
          Accept: 'application/json',
        },
        body: text,
        signal: controller.signal,
      });
      const type = response.headers.get('Content-Type') || '';
      if (!response.ok || type.startsWith('application/problem+json')) {
        const problem = await problemOf(response);
        clearResults();
        setStatus('error', 'Not validated', `the service answered ${response.status}`);
        showProblem(problem.title, problem.detail);
        return;
      }
      const report = await response.json();
      if (controller !== request) return;
      showReport(report, text);
    } catch (error) {
      if (controller.signal.aborted) return;
      clearResults();
      if (response) {
        setStatus('error', 'Not validated', 'the report could not be read');
        showProblem('The report was cut short or is not JSON', String(error.message || error));
      } else {
        setStatus('error', 'Not validated', 'the service could not be reached');
        showProblem('Could not reach the validation service', `${error.message || error}. Is cardkit serve still running?`);
      }
    } finally {
      if (controller === request) {
        request = null;
        setBusy(false);
      }
    }
  }

  function showReport(report, text) {
    showSummary(report);
    showDiagnostics(report);
    markLines();
    ui.panes.hidden = false;
    showSource(text);
  }

  // ---- opening files ----

  async function openFile(file) {
    if (!file) return;
    try {
      ui.text.value = await file.text();
    } catch (error) {
      showProblem(`Could not read ${file.name}`, String(error.message || error));
      return;
    }
    ui.name.value = file.name;
    ui.jsonLines.checked = JSON_LINES_NAME.test(file.name);
    hideProblem();
    clearResults();
    setStatus('idle', `Opened ${file.name}`, `${size(file.size)}; choose the kind and validate.`);
    ui.validate.focus();
  }

  // ---- wiring ----

  ui.form.addEventListener('submit', (event) => {
    event.preventDefault();
    validate();
  });
  ui.text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      ui.form.requestSubmit();
    }
  });
  ui.text.addEventListener('input', () => {
    if (shown.text !== null && !ui.status.querySelector('.stale')) {
      ui.status.append(element('p', 'status-note stale', 'The document has changed since it was validated.'));
    }
  });
  // Newer fields can be errors only against a version.
  ui.asOf.addEventListener('input', () => {
    ui.strictVersion.disabled = ui.asOf.value.trim() === '';
    if (ui.strictVersion.disabled) ui.strictVersion.checked = false;
  });
  ui.name.addEventListener('change', () => {
    if (JSON_LINES_NAME.test(ui.name.value.trim())) ui.jsonLines.checked = true;
  });
  ui.diagnostics.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-index]');
    if (button) choose(Number(button.dataset.index));
  });
  ui.showMore.addEventListener('click', listMore);
  ui.open.addEventListener('click', () => ui.file.click());
  ui.file.addEventListener('change', () => {
    openFile(ui.file.files[0]);
    ui.file.value = '';
  });
  ui.clear.addEventListener('click', () => {
    if (request) request.abort();
    ui.text.value = '';
    ui.name.value = '';
    hideProblem();
    clearResults();
    setStatus('idle', 'Paste a document or drop a file, then validate it.');
    ui.text.focus();
  });

  // A file dropped anywhere on the page opens it; the editor shows where.
  let dragDepth = 0;
  const hasFiles = (event) => Array.from(event.dataTransfer?.types || []).includes('Files');
  window.addEventListener('dragenter', (event) => {
    if (!hasFiles(event)) return;
    dragDepth += 1;
    ui.dropZone.classList.add('is-dragging');
  });
  window.addEventListener('dragleave', () => {
    dragDepth = Math.max(0, dragDepth - 1);
    if (dragDepth === 0) ui.dropZone.classList.remove('is-dragging');
  });
  window.addEventListener('dragover', (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  });
  window.addEventListener('drop', (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    dragDepth = 0;
    ui.dropZone.classList.remove('is-dragging');
    openFile(event.dataTransfer.files[0]);
  });
})();

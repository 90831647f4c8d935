// The page of `cardkit serve`: sends the document to POST /v1/validate and
// shows the report: a summary, the diagnostics (filtered by severity and
// code, each linked to the explanations of its field and its code), and the
// source with the offending lines marked, formatted when it came minified.
// A template or card design is sent to POST /v1/render as it is edited or
// opened, and drawn beside the diagnostics with the render's report.
// Plain DOM, no framework: this file is served as it is, from the binary.
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
  /** The tallest the source's spacer is made: browsers cap an element's
   * height (Firefox near 17.9 million pixels, Chromium near 33.5 million).
   * Past it, scrolling is scaled: each pixel scrolled moves the lines more. */
  const MAX_SPACER_HEIGHT = 15000000;
  /** Average characters per line past which a document is shown formatted
   * at first: minified JSON, on one line or a few very long ones. */
  const MINIFIED_LINE_CHARS = 200;
  /** Spaces per level of the formatted view, and the deepest level
   * indented (deeper lines are indented as that one). */
  const INDENT = 2;
  const MAX_INDENTED_DEPTH = 100;
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
    specNames: $('spec-names'),
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
    formatted: $('formatted'),
    filters: $('filters'),
    showErrors: $('show-errors'),
    showWarnings: $('show-warnings'),
    errorsN: $('errors-n'),
    warningsN: $('warnings-n'),
    codeFilter: $('code-filter'),
    diagnostics: $('diagnostics'),
    diagnosticsMeta: $('diagnostics-meta'),
    more: $('more'),
    moreText: $('more-text'),
    showMore: $('show-more'),
    preview: $('preview'),
    previewMeta: $('preview-meta'),
    previewImage: $('preview-image'),
    previewPlaceholder: $('preview-placeholder'),
    previewPlaceholderTitle: $('preview-placeholder-title'),
    previewPlaceholderDetail: $('preview-placeholder-detail'),
    previewReportHead: $('preview-report-head'),
    previewReport: $('preview-report'),
  };

  /** What is shown: the text as validated and the report's diagnostics. */
  const shown = {
    /** The text as validated. */
    text: null,
    /** Its views, made when first asked for: its own lines, formatted. */
    plain: null,
    formatted: null,
    /** The view drawn: one of the two (see plainView and formattedView). */
    view: null,
    /** Every diagnostic of the report, in its order. */
    diagnostics: [],
    /** The line in the view of each diagnostic (by its index). */
    viewLines: new Int32Array(0),
    /** The indices of the diagnostics the filters let through. */
    filtered: [],
    /** How many of them are listed. */
    listed: 0,
    /** View line number → { severity, messages } of the diagnostics on it. */
    marks: new Map(),
    /** The index of the diagnostic chosen in the list, if any, and its
     * place in the view: { line, index } (a UTF-16 index in the line). */
    current: null,
    currentAt: null,
    /** The lines drawn now: [first, end). */
    drawn: [0, 0],
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
    // How the body was read (its names, its version), and what would
    // change the verdict.
    for (const file of report.files) {
      const said = [file.reading && file.reading.note, file.note].filter(Boolean).join('; ');
      if (said) ui.status.append(element('p', 'status-note file-note', `${said.charAt(0).toUpperCase()}${said.slice(1)}.`));
    }
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
    let label = `${diagnostic.severity} ${diagnostic.code} at line ${diagnostic.line}, column ${diagnostic.column}: ${diagnostic.message}`;
    if (shown.view.formatted) {
      // The file's own line and column above; where the formatted view
      // shows it here.
      const line = shown.viewLines[index];
      button.append(element('span', 'diag-where', `line ${count(line)} as formatted`));
      label += ` (line ${line} as formatted)`;
    }
    button.setAttribute('aria-label', label);
    const foot = element('div', 'diag-foot');
    foot.append(explainer(diagnostic), explainLinks(diagnostic));
    item.append(button, foot);
    return item;
  }

  // ---- explanations: of the diagnostic's code and of the field it names ----

  /** The API's explanation of the diagnostic's code. */
  const codeUrl = (diagnostic) => `v1/explain/code/${encodeURIComponent(diagnostic.code)}`;

  /** The API's explanation of the field at the diagnostic's pointer (from
   * the file's root, as the report gives it), or null when it names none:
   * the whole document, or no document of a known kind. */
  function fieldUrl(diagnostic) {
    if (!diagnostic.kind || !diagnostic.pointer) return null;
    // Under the names the report was read under: a publishers' name is
    // explained as the field it was read as.
    const params = new URLSearchParams({ pointer: diagnostic.pointer, names: ui.specNames.checked ? 'spec' : 'auto' });
    return `v1/explain/${encodeURIComponent(diagnostic.kind)}?${params}`;
  }

  function link(href, text, label) {
    const anchor = element('a', 'explain-link', text);
    anchor.href = href;
    anchor.target = '_blank';
    anchor.rel = 'noopener';
    anchor.setAttribute('aria-label', label);
    return anchor;
  }

  /** Links to what the API says of the diagnostic's field and code. */
  function explainLinks(diagnostic) {
    const links = element('span', 'diag-links');
    const field = fieldUrl(diagnostic);
    if (field) links.append(link(field, 'field', `the field ${diagnostic.field || diagnostic.pointer} explained, by the API`));
    links.append(link(codeUrl(diagnostic), 'code', `the code ${diagnostic.code} explained, by the API`));
    return links;
  }

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
    const code = await fetchJson(codeUrl(diagnostic));
    if (code.ok) {
      parts.push(element('h4', '', diagnostic.code));
      parts.push(element('p', '', code.body.meaning));
      parts.push(element('p', 'explain-fix', `To fix it: ${code.body.fix}`));
    }
    const url = fieldUrl(diagnostic);
    if (url) {
      const field = await fetchJson(url);
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
    const total = shown.filtered.length;
    const end = Math.min(total, shown.listed + PAGE_SIZE);
    const fragment = document.createDocumentFragment();
    for (let i = shown.listed; i < end; i += 1) {
      const index = shown.filtered[i];
      fragment.append(diagnosticItem(shown.diagnostics[index], index));
    }
    ui.diagnostics.append(fragment);
    shown.listed = end;
    const rest = total - end;
    ui.more.hidden = rest === 0;
    ui.moreText.textContent = `Showing the first ${count(end)} of ${count(total)} diagnostics (and ${count(rest)} more).`;
    ui.showMore.textContent = `Show ${count(Math.min(rest, PAGE_SIZE))} more`;
  }

  /** Lists the diagnostics the filters let through, from the first. */
  function listDiagnostics() {
    shown.listed = 0;
    ui.diagnostics.replaceChildren();
    const all = shown.diagnostics.length;
    const n = shown.filtered.length;
    ui.diagnosticsMeta.textContent = all === 0 ? '' : n === all ? `(${count(all)})` : `(${count(n)} of ${count(all)})`;
    if (n === 0) {
      ui.diagnostics.append(all === 0
        ? element('li', 'diag-none', 'No diagnostics: nothing to fix.')
        : element('li', 'diag-filtered', 'No diagnostic is of the severities and the code chosen.'));
      ui.more.hidden = true;
      return;
    }
    listMore();
    if (shown.current !== null) {
      const button = ui.diagnostics.querySelector(`button[data-index="${shown.current}"]`);
      if (button) button.setAttribute('aria-current', 'true');
    }
  }

  function showDiagnostics(report) {
    shown.diagnostics = [];
    for (const file of report.files) {
      for (const document of file.documents) {
        // Each diagnostic keeps its document's kind, for its explanation.
        for (const diagnostic of document.diagnostics) shown.diagnostics.push({ ...diagnostic, kind: document.kind });
      }
    }
    shown.current = null;
    shown.currentAt = null;
    makeFilters();
  }

  function choose(index) {
    const diagnostic = shown.diagnostics[index];
    if (!diagnostic) return;
    for (const old of ui.diagnostics.querySelectorAll('[aria-current]')) old.removeAttribute('aria-current');
    const button = ui.diagnostics.querySelector(`button[data-index="${index}"]`);
    if (button) button.setAttribute('aria-current', 'true');
    shown.current = index;
    shown.currentAt = shown.view.at(diagnostic);
    scrollToLine(shown.currentAt.line);
  }

  // ---- filters: by severity and by code, in the page ----

  function severityShown(diagnostic) {
    if (diagnostic.severity === 'error') return ui.showErrors.checked;
    if (diagnostic.severity === 'warning') return ui.showWarnings.checked;
    return true;
  }

  /** The code filter's choices: the codes of the report, the most frequent
   * first. The severities chosen are kept from one report to the next; the
   * code, when the new report has it. */
  function makeFilters() {
    const seen = new Map();
    for (const diagnostic of shown.diagnostics) seen.set(diagnostic.code, (seen.get(diagnostic.code) || 0) + 1);
    const codes = [...seen.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([code]) => code);
    const chosen = ui.codeFilter.value;
    ui.codeFilter.replaceChildren(new Option('every code', ''), ...codes.map((code) => new Option(code, code)));
    ui.codeFilter.value = seen.has(chosen) ? chosen : '';
    ui.filters.hidden = shown.diagnostics.length === 0;
  }

  /** Counts, for each choice of a filter, the diagnostics it would show
   * with the other filter as it is; lists and marks those both let through. */
  function filterDiagnostics() {
    const code = ui.codeFilter.value;
    const bySeverity = { error: 0, warning: 0 };
    const byCode = new Map();
    let shownSeverities = 0;
    shown.filtered = [];
    for (const [index, diagnostic] of shown.diagnostics.entries()) {
      const severityOk = severityShown(diagnostic);
      const codeOk = code === '' || diagnostic.code === code;
      if (codeOk && diagnostic.severity in bySeverity) bySeverity[diagnostic.severity] += 1;
      if (severityOk) {
        shownSeverities += 1;
        byCode.set(diagnostic.code, (byCode.get(diagnostic.code) || 0) + 1);
      }
      if (severityOk && codeOk) shown.filtered.push(index);
    }
    ui.errorsN.textContent = `(${count(bySeverity.error)})`;
    ui.warningsN.textContent = `(${count(bySeverity.warning)})`;
    for (const option of ui.codeFilter.options) {
      const n = option.value === '' ? shownSeverities : byCode.get(option.value) || 0;
      option.textContent = `${option.value || 'every code'} (${count(n)})`;
    }
    if (shown.current !== null && !shown.filtered.includes(shown.current)) {
      shown.current = null;
      shown.currentAt = null;
    }
    listDiagnostics();
    markLines();
    if (shown.view) {
      showSourceMeta();
      drawSource(true);
    }
  }

  // ---- the views of the source: its own lines, or formatted ----

  /** The text on its own lines. A diagnostic is on its own line. */
  function plainView(text) {
    const lines = text.split('\n');
    let widest = 0;
    for (const line of lines) widest = Math.max(widest, line.length);
    return {
      formatted: false,
      count: lines.length,
      widest,
      line: (number) => lines[number - 1].replace(/\r$/, ''),
      lineOf: (diagnostic) => diagnostic.line,
      at: (diagnostic) => ({
        line: diagnostic.line,
        index: indexOfColumn((lines[diagnostic.line - 1] || '').replace(/\r$/, ''), diagnostic.column),
      }),
    };
  }

  const [SPACE, TAB, LF, CR, QUOTE, BACKSLASH, COMMA] = [0x20, 0x09, 0x0a, 0x0d, 0x22, 0x5c, 0x2c];
  const [OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET] = [0x7b, 0x7d, 0x5b, 0x5d];

  /** The bytes of the character whose first UTF-16 unit is `unit` in
   * UTF-8, as the text is sent: a lone surrogate is sent as U+FFFD. */
  const utf8Size = (unit, pair) => (unit < 0x80 ? 1 : unit < 0x800 ? 2 : pair ? 4 : 3);
  const isPair = (text, i) => (text.charCodeAt(i) & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;

  /** The text pretty-printed, in one pass: a line break after `{`, `[` and
   * `,` and before `}` and `]` (outside strings; an empty `{}` or `[]` stays
   * on its line), each line indented by its depth. Every line is a slice of
   * the text (the blanks between tokens within it kept), so that nothing
   * but the lines' bounds is stored, and a byte offset of the report maps
   * to a line and a column of the view. Malformed JSON is formatted as far
   * as its brackets and commas go; a line break of the text is always one
   * of the view, so no line runs over two. */
  function formattedView(text) {
    const length = text.length;
    let capacity = 1024;
    let starts = new Int32Array(capacity);
    let ends = new Int32Array(capacity);
    let depths = new Int32Array(capacity);
    /** The byte offset of each line's first character. */
    let bytes = new Float64Array(capacity);
    let lines = 0;
    let widest = 0;
    // The line being made: its first character (-1 when there is none
    // yet), its byte offset and depth, and the end of its last token.
    let start = -1;
    let startByte = 0;
    let startDepth = 0;
    let end = 0;
    let depth = 0;
    let byte = 0;
    let inString = false;
    let escaped = false;

    const close = () => {
      if (start < 0) return;
      if (lines === capacity) {
        capacity *= 2;
        const grown = (old, Type) => {
          const array = new Type(capacity);
          array.set(old);
          return array;
        };
        starts = grown(starts, Int32Array);
        ends = grown(ends, Int32Array);
        depths = grown(depths, Int32Array);
        bytes = grown(bytes, Float64Array);
      }
      starts[lines] = start;
      ends[lines] = end;
      depths[lines] = startDepth;
      bytes[lines] = startByte;
      widest = Math.max(widest, Math.min(startDepth, MAX_INDENTED_DEPTH) * INDENT + end - start);
      lines += 1;
      start = -1;
    };

    for (let i = 0; i < length; i += 1) {
      const first = i;
      const c = text.charCodeAt(i);
      let size = 1;
      if (c >= 0x80) {
        const pair = isPair(text, i);
        size = utf8Size(c, pair);
        if (pair) i += 1;
      }
      if (inString) {
        if (c === LF || c === CR) {
          // A string does not run over lines (JSON's cannot).
          inString = false;
          close();
        } else {
          end = i + 1;
          if (escaped) escaped = false;
          else if (c === BACKSLASH) escaped = true;
          else if (c === QUOTE) inString = false;
        }
      } else if (c === SPACE || c === TAB) {
        // Blanks between tokens: kept within a line, dropped at its ends.
      } else if (c === LF || c === CR) {
        close();
      } else {
        if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          // A closer begins a line of its own, one level out.
          close();
          if (depth > 0) depth -= 1;
        }
        if (start < 0) {
          start = first;
          startByte = byte;
          startDepth = depth;
        }
        end = i + 1;
        if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          let j = i + 1;
          while (j < length && (text.charCodeAt(j) === SPACE || text.charCodeAt(j) === TAB)) j += 1;
          if (text.charCodeAt(j) === c + 2) {
            // Empty: `{}` or `[]` (their closers are two code points on).
            byte += j - i;
            i = j;
            end = j + 1;
            if (depth === 0) close();
          } else {
            close();
            depth += 1;
          }
        } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          // The end of a value of the top level (of a line of JSON Lines).
          if (depth === 0) close();
        } else if (c === COMMA) {
          if (depth > 0) close();
        } else if (c === QUOTE) {
          inString = true;
        }
      }
      byte += size;
    }
    close();
    if (lines === 0) {
      // Nothing but blanks: one empty line.
      start = 0;
      end = 0;
      close();
    }

    const indent = (k) => ' '.repeat(Math.min(depths[k], MAX_INDENTED_DEPTH) * INDENT);
    /** The last line that starts at or before `value` in `starts` or `bytes`. */
    const lineAt = (array, value) => {
      let low = 0;
      let high = lines - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (array[middle] <= value) low = middle;
        else high = middle - 1;
      }
      return low;
    };
    /** The UTF-16 index of the character at 1-based `line` and `column` of
     * the text (columns count characters), for a report without offsets. */
    const indexOf = (line, column) => {
      let index = 0;
      for (let n = 1; n < line && index >= 0; n += 1) index = text.indexOf('\n', index) + 1 || -1;
      if (index < 0) return length;
      return index + indexOfColumn(text.slice(index, index + 4 * column + 4), column);
    };
    /** Where the diagnostic's value is: { line, index } in the view. */
    const at = (diagnostic) => {
      let k;
      let index;
      if (typeof diagnostic.offset === 'number') {
        // Its byte offset, walked to from the start of its line.
        k = lineAt(bytes, diagnostic.offset);
        index = starts[k];
        for (let b = bytes[k]; b < diagnostic.offset && index < ends[k]; index += 1) {
          const pair = isPair(text, index);
          b += utf8Size(text.charCodeAt(index), pair);
          if (pair) index += 1;
        }
      } else {
        const target = indexOf(diagnostic.line, diagnostic.column);
        k = lineAt(starts, target);
        index = Math.min(Math.max(target, starts[k]), ends[k]);
      }
      return { line: k + 1, index: indent(k).length + index - starts[k] };
    };
    return {
      formatted: true,
      count: lines,
      widest,
      line: (number) => indent(number - 1) + text.slice(starts[number - 1], ends[number - 1]),
      lineOf: (diagnostic) => (typeof diagnostic.offset === 'number'
        ? lineAt(bytes, diagnostic.offset)
        : lineAt(starts, indexOf(diagnostic.line, diagnostic.column))) + 1,
      at,
    };
  }

  /** Whether the text reads best formatted: on a few very long lines, as
   * minified JSON is. */
  const looksMinified = (text, plain) => text.length / plain.count > MINIFIED_LINE_CHARS;

  /** Shows `text` (the text validated): formatted at first when it looks
   * minified, unless it is the text shown before, whose view is kept. */
  function setText(text) {
    if (text !== shown.text) {
      shown.text = text;
      shown.plain = plainView(text);
      shown.formatted = null;
      ui.formatted.checked = looksMinified(text, shown.plain);
    }
    setView();
  }

  /** Draws the view the Formatted switch asks for, from its top or at the
   * diagnostic chosen. */
  function setView() {
    if (ui.formatted.checked && !shown.formatted) shown.formatted = formattedView(shown.text);
    const view = ui.formatted.checked ? shown.formatted : shown.plain;
    shown.view = view;
    shown.viewLines = Int32Array.from(shown.diagnostics, view.lineOf);
    const digits = String(view.count).length;
    ui.source.style.setProperty('--digits', String(digits));
    ui.sourceSpacer.style.height = `${Math.min(view.count * LINE_HEIGHT, MAX_SPACER_HEIGHT)}px`;
    ui.sourceSpacer.style.width = `calc(${digits + 4}ch + ${Math.min(view.widest, MAX_LINE_CHARS + 30)}ch + 2rem)`;
    ui.source.scrollTop = 0;
    ui.source.scrollLeft = 0;
    shown.drawn = [0, 0];
    shown.currentAt = shown.current === null ? null : view.at(shown.diagnostics[shown.current]);
  }

  function showSourceMeta() {
    const view = shown.view;
    const lines = view.formatted
      ? `${plural(view.count, 'line')} as formatted, from ${plural(shown.plain.count, 'line')}`
      : plural(view.count, 'line');
    ui.sourceMeta.textContent = `(${lines}, ${count(shown.marks.size)} marked)`;
  }

  // ---- the source drawn: only the lines in view (and a margin) ----

  /** The lines of the diagnostics the filters let through, marked. */
  function markLines() {
    shown.marks = new Map();
    for (const index of shown.filtered) {
      const diagnostic = shown.diagnostics[index];
      const line = shown.viewLines[index];
      const mark = shown.marks.get(line);
      if (!mark) {
        shown.marks.set(line, { severity: diagnostic.severity, messages: [diagnostic.message] });
      } else {
        if (RANK[diagnostic.severity] > RANK[mark.severity]) mark.severity = diagnostic.severity;
        if (mark.messages.length < 5) mark.messages.push(diagnostic.message);
      }
    }
  }

  /** The part of `line` to draw: all of it, or a cut around `index`. */
  function visiblePart(line, index) {
    if (line.length <= MAX_LINE_CHARS) return { before: '', text: line, after: '' };
    const start = Math.max(0, Math.min(index - MAX_LINE_CHARS / 2, line.length - MAX_LINE_CHARS));
    const end = start + MAX_LINE_CHARS;
    return {
      before: start > 0 ? `… ${count(start)} characters before · ` : '',
      text: line.slice(start, end),
      after: end < line.length ? ` · ${count(line.length - end)} more characters …` : '',
      start,
    };
  }

  function lineRow(number) {
    const line = shown.view.line(number);
    const mark = shown.marks.get(number);
    const current = shown.currentAt && shown.currentAt.line === number ? shown.currentAt : null;
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
    const part = visiblePart(line, current ? current.index : 0);
    if (part.before) code.append(element('span', 'cut', part.before));
    if (current) {
      const at = current.index - (part.start || 0);
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

  /** How many pixels of the lines one pixel scrolled moves: 1, or more
   * when they are taller than the spacer may be. */
  function scrollScale() {
    const viewport = ui.source.clientHeight;
    const height = shown.view.count * LINE_HEIGHT;
    const spacer = Math.min(height, MAX_SPACER_HEIGHT);
    return height <= spacer || spacer <= viewport ? 1 : (height - viewport) / (spacer - viewport);
  }

  function drawSource(force) {
    const total = shown.view.count;
    const scrolled = ui.source.scrollTop;
    const top = scrolled * scrollScale();
    const first = Math.max(0, Math.floor(top / LINE_HEIGHT) - MARGIN_LINES);
    const end = Math.min(total, Math.ceil((top + ui.source.clientHeight) / LINE_HEIGHT) + MARGIN_LINES);
    if (force || first !== shown.drawn[0] || end !== shown.drawn[1]) {
      const fragment = document.createDocumentFragment();
      for (let i = first; i < end; i += 1) fragment.append(lineRow(i + 1));
      ui.sourceWindow.replaceChildren(fragment);
      shown.drawn = [first, end];
    }
    // Line `first` is drawn where it is, the top of the view being at `top`.
    ui.sourceWindow.style.transform = `translateY(${scrolled + first * LINE_HEIGHT - top}px)`;
  }

  function scrollToLine(number) {
    const target = (number - 1) * LINE_HEIGHT - (ui.source.clientHeight - LINE_HEIGHT) / 2;
    ui.source.scrollTop = Math.max(0, target / scrollScale());
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
    if (ui.specNames.checked) params.set('names', 'spec');
    if (ui.warnDeprecated.checked) params.set('warn', 'deprecated');
    if (ui.allWarnings.checked) params.set('warning_limit', '0');
    return params;
  }

  function clearResults() {
    ui.panes.hidden = true;
    shown.text = null;
    shown.plain = null;
    shown.formatted = null;
    shown.view = null;
    shown.diagnostics = [];
    shown.viewLines = new Int32Array(0);
    shown.filtered = [];
    shown.marks = new Map();
    shown.current = null;
    shown.currentAt = null;
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
    ui.panes.hidden = false;
    showDiagnostics(report);
    setText(text);
    filterDiagnostics();
  }

  // ---- the preview ----

  /** Milliseconds of quiet editing before the document is drawn. */
  const PREVIEW_DELAY = 400;
  /** The most characters drawn when the kind is told from the members: a
   * larger document is most likely a set, which has no picture. A kind of
   * template or card draws up to MAX_PREVIEW_CHARS. */
  const MAX_AUTO_PREVIEW_CHARS = 1 << 20;
  const MAX_PREVIEW_CHARS = 16 << 20;
  let previewTimer = null;
  let previewRequest = null;
  /** The blob: URL of the picture shown, revoked when replaced. */
  let previewUrl = null;

  /** Whether the document in the editor may be drawn: one JSON value, of a
   * kind that has a picture, not too large. */
  function previewable(text) {
    const kind = ui.kind.value;
    if (ui.jsonLines.checked || text.trim() === '') return false;
    if (kind === 'template' || kind === 'card') return text.length <= MAX_PREVIEW_CHARS;
    return kind === 'auto' && text.length <= MAX_AUTO_PREVIEW_CHARS;
  }

  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(preview, PREVIEW_DELAY);
  }

  function setPicture(url) {
    if (previewUrl) URL.revokeObjectURL(previewUrl);
    previewUrl = url;
    if (url) {
      ui.previewImage.src = url;
    } else {
      ui.previewImage.removeAttribute('src');
    }
    ui.previewImage.hidden = !url;
  }

  /** The report's lines, listed under the picture or the placeholder. */
  function showPreviewReport(lines) {
    ui.previewReport.replaceChildren(...lines.map((line) => {
      const item = element('li', 'preview-line');
      item.append(element('code', 'preview-at', line.at), document.createTextNode(` ${line.message}`));
      return item;
    }));
    ui.previewReportHead.hidden = lines.length === 0;
    ui.previewReportHead.textContent = lines.length === 1
      ? '1 thing not drawn as designed'
      : `${lines.length} things not drawn as designed`;
  }

  /** No picture: the placeholder says why. */
  function showPlaceholder(title, detail) {
    setPicture(null);
    ui.previewPlaceholderTitle.textContent = title;
    ui.previewPlaceholderDetail.textContent = detail;
    ui.previewPlaceholder.hidden = false;
    ui.previewMeta.textContent = '';
    showPreviewReport([]);
  }

  function showPicture(answer) {
    setPicture(URL.createObjectURL(new Blob([answer.svg], { type: 'image/svg+xml' })));
    ui.previewImage.alt = `The ${answer.kind} as drawn, ${answer.width} × ${answer.height} pixels`;
    ui.previewPlaceholder.hidden = true;
    ui.previewMeta.textContent = answer.converted ? `${answer.kind}, converted` : answer.kind;
    ui.previewMeta.title = answer.converted || '';
    showPreviewReport(answer.report);
  }

  function hidePreview() {
    clearTimeout(previewTimer);
    if (previewRequest) previewRequest.abort();
    previewRequest = null;
    setPicture(null);
    ui.preview.hidden = true;
    ui.preview.removeAttribute('aria-busy');
  }

  async function preview() {
    previewTimer = null;
    const text = ui.text.value;
    if (!previewable(text)) {
      hidePreview();
      return;
    }
    if (previewRequest) previewRequest.abort();
    const controller = new AbortController();
    previewRequest = controller;
    ui.preview.hidden = false;
    ui.preview.setAttribute('aria-busy', 'true');
    try {
      const response = await fetch('v1/render', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: text,
        signal: controller.signal,
      });
      if (response.status === 503) {
        // Every render slot is taken: the picture shown stays, and the
        // document is drawn again when the service says to come back.
        if (controller !== previewRequest) return;
        const seconds = Number(response.headers.get('Retry-After')) || 1;
        clearTimeout(previewTimer);
        previewTimer = setTimeout(preview, seconds * 1000);
        return;
      }
      if (!response.ok) {
        const problem = await problemOf(response);
        if (controller !== previewRequest) return;
        // The first line says why; an invalid design's errors are the
        // diagnostics' to list.
        const [why, ...rest] = (problem.detail || problem.title).split('\n');
        showPlaceholder('No picture', rest.length ? `${why} (the diagnostics list them when it is validated)` : why);
        return;
      }
      const answer = await response.json();
      if (controller !== previewRequest) return;
      showPicture(answer);
    } catch (error) {
      if (controller.signal.aborted) return;
      showPlaceholder('No picture', `The service could not draw it: ${error.message || error}`);
    } finally {
      if (controller === previewRequest) {
        previewRequest = null;
        ui.preview.removeAttribute('aria-busy');
      }
    }
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
    schedulePreview();
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
    schedulePreview();
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
  for (const control of [ui.kind, ui.jsonLines]) {
    control.addEventListener('change', schedulePreview);
  }
  for (const control of [ui.showErrors, ui.showWarnings, ui.codeFilter]) {
    control.addEventListener('change', filterDiagnostics);
  }
  ui.formatted.addEventListener('change', () => {
    if (shown.text === null) return;
    setView();
    filterDiagnostics();
    if (shown.currentAt) scrollToLine(shown.currentAt.line);
  });
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
    hidePreview();
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

// The web page of `cardkit serve` in Debian's Chromium, driven by
// playwright-core: what a person does on it, checked against the reports the
// API gives for the same bodies.
//
//   node page.test.mjs BASE_URL SCREENSHOT_PATH
//
// CARDKIT_EXAMPLES is the repository's examples/ folder; CARDKIT_LARGE_SET a
// real set of some MB; CARDKIT_MINIFIED_SET a real set of some MB on one
// line, wrapped with its meta.version; CARDKIT_CHROMIUM the browser (default
// /usr/bin/chromium). tests/page.rs starts the service and runs this.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';

import { chromium } from 'playwright-core';

const [base, screenshotPath] = process.argv.slice(2);
assert.ok(base && screenshotPath, 'usage: node page.test.mjs BASE_URL SCREENSHOT_PATH');
const examples = process.env.CARDKIT_EXAMPLES;
const largeSet = process.env.CARDKIT_LARGE_SET;
const minifiedSet = process.env.CARDKIT_MINIFIED_SET;
const upstreamSet = process.env.CARDKIT_UPSTREAM_SET;
assert.ok(examples && largeSet && minifiedSet, 'CARDKIT_EXAMPLES, CARDKIT_LARGE_SET and CARDKIT_MINIFIED_SET must be set');

const DESKTOP = { width: 1280, height: 800 };
const NARROW = { width: 390, height: 844 };
/** The diagnostics the page lists before "Show more". */
const PAGE_SIZE = 200;

const example = (path) => readFileSync(join(examples, path), 'utf8');

let userDataDir;
let context;
let page;
/** Console messages and page errors that should never happen. */
const faults = [];
/** Requests that left the service's origin. */
const foreign = [];

before(async () => {
  userDataDir = mkdtempSync(join(tmpdir(), 'cardkit-chromium-'));
  // A fresh profile: no state from another run, no first-run work.
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CARDKIT_CHROMIUM || '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    viewport: DESKTOP,
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => faults.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A 4xx answer is logged by the browser; the page shows it itself.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      faults.push(`console: ${message.text()}`);
    }
  });
  page.on('request', (request) => {
    // The preview's picture is a blob: the page made of the SVG it got.
    const url = request.url();
    if (!url.startsWith(base) && !url.startsWith(`blob:${base}`)) foreign.push(url);
  });
});

after(async () => {
  await context?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

/** The report the API gives for `body`, as the page would ask for it. */
async function apiReport(body, query, contentType = 'application/json') {
  const response = await fetch(`${base}/v1/validate?${new URLSearchParams(query)}`, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body,
  });
  assert.equal(response.status, 200);
  return response.json();
}

const diagnosticsOf = (report) =>
  report.files.flatMap((file) => file.documents.flatMap((document) => document.diagnostics));

/** Puts `text` in the editor as a paste would, and names it. */
async function paste(text, name) {
  await page.locator('#text').fill(text);
  await page.locator('#name').fill(name);
}

/** Clicks Validate and waits for the verdict; returns how long it took. */
async function validate() {
  const started = Date.now();
  await page.getByRole('button', { name: 'Validate', exact: true }).click();
  await page.locator('#status:not([aria-busy="true"]) .verdict').waitFor();
  return Date.now() - started;
}

/** What the page lists, as the report's fields. */
function listed() {
  return page.locator('#diagnostics .diag').evaluateAll((items) =>
    items.map((item) => ({
      severity: item.querySelector('.sev-badge').textContent,
      code: item.querySelector('.diag-code').textContent,
      position: item.querySelector('.diag-pos').textContent,
      message: item.querySelector('.diag-message').textContent,
      pointer: item.querySelector('.diag-pointer').textContent,
    })),
  );
}

const expectedListing = (diagnostics) =>
  diagnostics.map((d) => ({
    severity: d.severity,
    code: d.code,
    position: `${d.line}:${d.column}`,
    message: d.message,
    pointer: d.pointer || '(root)',
  }));

/** The line drawn for `number` and where it is, or null when not drawn;
 * in view within `slack` pixels. */
function drawnLine(number, slack = 0) {
  return page.evaluate(({ number, slack }) => {
    const row = document.querySelector(`#source .line[data-line="${number}"]`);
    if (!row) return null;
    const view = document.getElementById('source').getBoundingClientRect();
    const box = row.getBoundingClientRect();
    return {
      classes: [...row.classList],
      text: row.querySelector('.text').textContent,
      mark: row.querySelector('.column-mark')?.textContent ?? null,
      inView: box.top >= view.top - slack && box.bottom <= view.bottom + slack,
    };
  }, { number, slack });
}

/** How far the element of `selector` overflows sideways, in pixels. */
const sidewaysOverflow = (selector) =>
  page.locator(selector).evaluate((element) => element.scrollWidth - element.clientWidth);

/** The character at 1-based `column` (in characters) of `line`. */
const characterAt = (line, column) => Array.from(line)[column - 1] ?? ' ';

const thousands = (n) => n.toLocaleString('en-US');

/** Starts counting the longest task the page runs. */
const watchLongTasks = () =>
  page.evaluate(() => {
    window.longestTask = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longestTask = Math.max(window.longestTask, entry.duration);
    }).observe({ type: 'longtask' });
  });

/** The text of the source's header, and the lines drawn. */
const sourceMeta = () => page.locator('#source-meta').textContent();
const drawnLines = () =>
  page.locator('#source .line').evaluateAll((rows) =>
    rows.map((row) => ({ line: Number(row.dataset.line), text: row.querySelector('.text').textContent, classes: [...row.classList] })),
  );

/** Lists every diagnostic, "Show more" after "Show more". */
async function listAll() {
  while (await page.locator('#more').isVisible()) await page.locator('#show-more').click();
}

/** Chooses each diagnostic listed in turn (in the page, at once) and says
 * for each the line drawn as the current one: its number, its text, where
 * the column mark is in it, whether it is in view, and what the diagnostic
 * says of its place in the formatted view; and every line drawn marked
 * meanwhile. */
const chooseEach = () =>
  page.evaluate(() => {
    const view = document.getElementById('source').getBoundingClientRect();
    const chosen = [];
    const marked = new Set();
    for (const button of document.querySelectorAll('#diagnostics .diag-button')) {
      button.click();
      const row = document.querySelector('#source .line.is-current');
      if (!row) {
        chosen.push(null);
        continue;
      }
      const text = row.querySelector('.text');
      let mark = 0;
      for (const node of text.childNodes) {
        if (node.nodeType === Node.ELEMENT_NODE && node.classList.contains('column-mark')) break;
        mark += node.textContent.length;
      }
      const box = row.getBoundingClientRect();
      chosen.push({
        line: Number(row.dataset.line),
        classes: [...row.classList],
        text: text.textContent,
        mark,
        cut: Boolean(text.querySelector('.cut')),
        inView: box.top >= view.top && box.bottom <= view.bottom,
        where: button.querySelector('.diag-where')?.textContent ?? null,
      });
      for (const marked_ of document.querySelectorAll('#source .line.is-error, #source .line.is-warning')) {
        marked.add(Number(marked_.dataset.line));
      }
    }
    return { chosen, marked: [...marked] };
  });

/** A line of JSON.stringify(value, null, 2) as the file writes its numbers
 * (`2.0` where JSON.stringify writes `2`). */
const numbersAsParsed = (line) =>
  line.replace(/(^\s*|: )(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(,?)$/, (_, before, number, comma) => before + String(Number(number)) + comma);

/** The last reference token of a JSON Pointer. */
const lastToken = (pointer) => pointer.slice(pointer.lastIndexOf('/') + 1).replace(/~1/g, '/').replace(/~0/g, '~');

test('the page and its files come from the service, under its policy', async () => {
  const response = await page.goto(base);
  assert.equal(response.status(), 200);
  assert.match(response.headers()['content-security-policy'], /script-src 'self'/);
  assert.equal(await page.title(), 'cardkit: validate a document');
  for (const label of ['Kind', 'File name', 'JSON Lines', 'Unknown fields are errors']) {
    assert.equal(await page.getByLabel(label, { exact: true }).count(), 1, `a control labelled ${label}`);
  }
  assert.equal(await page.getByLabel('Kind').inputValue(), 'auto');
  assert.equal(await page.locator('#panes').isHidden(), true);
});

test('a valid example: the summary says valid and lists nothing', async () => {
  const text = example('valid/card.json');
  const report = await apiReport(text, { kind: 'auto', name: 'card.json' });
  assert.equal(report.summary.valid, 1);
  await paste(text, 'card.json');
  await validate();
  assert.equal(await page.locator('#status .verdict').textContent(), 'Valid');
  assert.match(await page.locator('#status').textContent(), /1 document · 0 errors · 0 warnings/);
  assert.equal(await page.locator('#diagnostics .diag').count(), 0);
  assert.match(await page.locator('#diagnostics').textContent(), /No diagnostics/);
  assert.equal(await page.locator('#source .line.is-error, #source .line.is-warning').count(), 0);
  assert.equal((await drawnLine(1)).text, text.split('\n')[0]);
});

test('an invalid example: the diagnostics of the API, their lines marked and reached', async () => {
  const name = 'card-layer-problems.json';
  const text = example(`invalid/${name}`);
  const lines = text.split('\n');
  const report = await apiReport(text, { kind: 'auto', name });
  const diagnostics = diagnosticsOf(report);
  assert.ok(diagnostics.length >= 5, 'the example has several problems');
  await paste(text, name);
  await validate();

  assert.equal(await page.locator('#status .verdict').textContent(), 'Invalid');
  const errors = Object.values(report.summary.errors).reduce((a, b) => a + b, 0);
  assert.match(await page.locator('#status').textContent(), new RegExp(`${errors} errors`));
  for (const code of Object.keys(report.summary.errors)) {
    assert.equal(await page.locator('.code-count code', { hasText: code }).count(), 1, `the count of ${code}`);
  }
  assert.deepEqual(await listed(), expectedListing(diagnostics));
  assert.equal(await page.locator('#diagnostics-heading').textContent(), `Diagnostics (${diagnostics.length})`);
  assert.equal(await sidewaysOverflow('#diagnostics'), 0, 'the diagnostics wrap within their pane');

  // Every marked line drawn is a line with a diagnostic, and the reverse.
  const severityOf = new Map();
  for (const d of diagnostics) {
    if (severityOf.get(d.line) !== 'error') severityOf.set(d.line, d.severity);
  }
  const drawn = await page.locator('#source .line').evaluateAll((rows) =>
    rows.map((row) => ({ line: Number(row.dataset.line), classes: [...row.classList] })),
  );
  assert.ok(drawn.length > 0);
  for (const { line, classes } of drawn) {
    const severity = severityOf.get(line);
    assert.equal(classes.includes('is-error'), severity === 'error', `line ${line} marked as an error`);
    assert.equal(classes.includes('is-warning'), severity === 'warning', `line ${line} marked as a warning`);
  }

  // Clicking a diagnostic brings its line into view, marked, with its column.
  for (const [index, d] of diagnostics.entries()) {
    await page.locator('#diagnostics .diag-button').nth(index).click();
    const row = await drawnLine(d.line);
    assert.ok(row, `line ${d.line} is drawn`);
    assert.ok(row.inView, `line ${d.line} is in view`);
    assert.ok(row.classes.includes('is-current'), `line ${d.line} is the current one`);
    assert.ok(row.classes.includes(`is-${severityOf.get(d.line)}`));
    assert.equal(row.text, lines[d.line - 1]);
    assert.equal(row.mark, characterAt(lines[d.line - 1], d.column), `the column of ${d.code} at ${d.line}:${d.column}`);
    assert.equal(await page.locator('#diagnostics [aria-current="true"]').count(), 1);
  }

  // The picture of the book (docs/service.md): the first diagnostic chosen.
  await page.locator('#diagnostics .diag-button').first().click();
  await page.screenshot({ path: screenshotPath, fullPage: true });
});

test('the keyboard reaches and uses the diagnostics', async () => {
  const buttons = page.locator('#diagnostics .diag-button');
  await buttons.nth(1).focus();
  await page.keyboard.press('Enter');
  const second = await buttons.nth(1).getAttribute('aria-label');
  const line = Number(second.match(/at line (\d+)/)[1]);
  assert.ok((await drawnLine(line)).classes.includes('is-current'));
  const outline = await buttons.nth(1).evaluate((button) => getComputedStyle(button).outlineStyle);
  assert.notEqual(outline, 'none', 'the focused diagnostic shows its focus');
});

test('on a narrow screen the panes stack, and nothing overflows sideways', async () => {
  await page.setViewportSize(NARROW);
  const layout = await page.evaluate(() => {
    const source = document.querySelector('.source-pane').getBoundingClientRect();
    const list = document.querySelector('.diagnostics-pane').getBoundingClientRect();
    return {
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      stacked: list.top >= source.bottom,
      sourceWidth: source.width,
    };
  });
  assert.equal(layout.overflow, 0, 'no horizontal overflow of the page');
  assert.equal(await sidewaysOverflow('#diagnostics'), 0, 'the diagnostics wrap within their pane');
  assert.ok(layout.stacked, 'the diagnostics come below the source');
  assert.ok(layout.sourceWidth <= NARROW.width && layout.sourceWidth > NARROW.width * 0.8, `the source is ${layout.sourceWidth} px wide`);
  await page.setViewportSize(DESKTOP);
  const wide = await page.evaluate(() => {
    const source = document.querySelector('.source-pane').getBoundingClientRect();
    const list = document.querySelector('.diagnostics-pane').getBoundingClientRect();
    return Math.abs(source.top - list.top) < 1 && list.left > source.right;
  });
  assert.ok(wide, 'on a wide screen the panes stand side by side');
});

test('the kind chosen is the kind validated', async () => {
  const text = example('valid/template.json');
  await paste(text, 'template.json');
  await validate();
  assert.equal(await page.locator('#status .verdict').textContent(), 'Valid');

  await page.getByLabel('Kind').selectOption('migration');
  const report = await apiReport(text, { kind: 'migration', name: 'template.json' });
  assert.equal(report.files[0].documents[0].kind, 'migration');
  await validate();
  assert.equal(await page.locator('#status .verdict').textContent(), 'Invalid');
  assert.deepEqual(await listed(), expectedListing(diagnosticsOf(report)));
  await page.getByLabel('Kind').selectOption('auto');
});

test('the version asked is the version validated, newer fields errors when strict', async () => {
  const text = example('valid/set.json');
  await paste(text, 'set.json');
  const strict = page.getByLabel('Newer fields are errors');
  assert.equal(await strict.isDisabled(), true, 'strict needs a version');
  await page.getByLabel('As of version').fill('v5.0.0');
  assert.equal(await strict.isDisabled(), false);
  await strict.check();
  const report = await apiReport(text, { kind: 'auto', name: 'set.json', as_of: 'v5.0.0', strict_version: 'true' });
  assert.ok(diagnosticsOf(report).some((d) => d.code === 'newer_field' && d.severity === 'error'));
  await validate();
  assert.equal(await page.locator('#status .verdict').textContent(), 'Invalid');
  assert.deepEqual(await listed(), expectedListing(diagnosticsOf(report)));
  // Without a version there is nothing to be strict about.
  await page.getByLabel('As of version').fill('');
  assert.equal(await strict.isDisabled(), true);
  assert.equal(await strict.isChecked(), false);
  await validate();
  assert.equal(await page.locator('#status .verdict').textContent(), 'Valid');
});

test('a diagnostic explains its code and its field, as the API does', async () => {
  const text = example('invalid/set-card-problems.json');
  await paste(text, 'set-card-problems.json');
  await validate();
  const report = await apiReport(text, { kind: 'auto', name: 'set-card-problems.json' });
  const first = diagnosticsOf(report)[0];
  const item = page.locator('#diagnostics .diag').first();
  await item.locator('.diag-explain summary').click();
  const body = item.locator('.explain-body');
  await body.locator('h4').first().waitFor();
  const code = await (await fetch(`${base}/v1/explain/code/${first.code}`)).json();
  assert.equal(await body.locator('h4').first().textContent(), first.code);
  assert.ok((await body.textContent()).includes(code.meaning), "the code's meaning is shown");
  // The field: the service's lines for the diagnostic's pointer, or why
  // there is none.
  const field = await fetch(`${base}/v1/explain/set?${new URLSearchParams({ pointer: first.pointer })}`);
  if (field.ok) {
    const explained = await field.json();
    const labels = await body.locator('dt').allTextContents();
    assert.deepEqual(labels, explained.places.flatMap((place) => place.lines.map((line) => line.label)));
  } else {
    assert.match(await body.textContent(), /did you mean|no field|no member/i);
  }
});

test('a dropped JSON Lines file is opened as JSON Lines, with its name', async () => {
  const name = 'migrations.jsonl';
  const text = example(`valid/${name}`);
  const transfer = await page.evaluateHandle(({ name, text }) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], name));
    return transfer;
  }, { name, text });
  for (const type of ['dragenter', 'dragover', 'drop']) {
    await page.dispatchEvent('#text', type, { dataTransfer: transfer });
  }
  await page.locator('#status', { hasText: `Opened ${name}` }).waitFor();
  assert.equal(await page.locator('#text').inputValue(), text);
  assert.equal(await page.locator('#name').inputValue(), name);
  assert.equal(await page.getByLabel('JSON Lines').isChecked(), true);
  const report = await apiReport(text, { kind: 'auto', name }, 'application/x-ndjson');
  await validate();
  assert.equal(await page.locator('#status .verdict').textContent(), 'Valid');
  assert.match(await page.locator('#status').textContent(), new RegExp(`${report.summary.documents} documents: ${report.summary.documents} valid`));
  await page.getByLabel('JSON Lines').uncheck();
});

/** Drops a file of `text` named `name` on the editor, as a person would. */
async function drop(name, text) {
  const transfer = await page.evaluateHandle(({ name, text }) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], name));
    return transfer;
  }, { name, text });
  for (const type of ['dragenter', 'dragover', 'drop']) {
    await page.dispatchEvent('#text', type, { dataTransfer: transfer });
  }
  await page.locator('#status', { hasText: `Opened ${name}` }).waitFor();
}

test('a dropped design is drawn beside its diagnostics, with the render\'s report', async () => {
  await page.getByRole('button', { name: 'Clear' }).click();
  assert.equal(await page.locator('#preview').isHidden(), true, 'nothing to draw, no preview');
  const text = example('valid/template.json');
  const rendered = await (await fetch(`${base}/v1/render`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: text,
  })).json();
  await drop('template.json', text);
  await page.locator('#preview-image:not([hidden])').waitFor();
  const picture = await page.locator('#preview-image').evaluate(async (image) => {
    await image.decode();
    return { width: image.naturalWidth, height: image.naturalHeight, src: image.src };
  });
  assert.ok(picture.width > 0 && picture.height > 0, `the picture is ${picture.width} × ${picture.height}`);
  assert.match(picture.src, /^blob:/);
  assert.equal(await page.locator('#preview-placeholder').isHidden(), true);
  // The render's report, line by line, as the API gives it.
  const lines = await page.locator('#preview-report li').allTextContents();
  assert.deepEqual(lines, rendered.report.map((line) => `${line.at} ${line.message}`));
  assert.ok(lines.length > 0, 'the assets the service does not read are reported');
  await validate();
  assert.equal(await page.locator('#status .verdict').textContent(), 'Valid');
  const beside = await page.evaluate(() => {
    const list = document.querySelector('.diagnostics-pane').getBoundingClientRect();
    const preview = document.querySelector('#preview').getBoundingClientRect();
    return preview.left >= list.right && preview.top < list.bottom;
  });
  assert.ok(beside, 'the picture stands beside the diagnostics');
});

test('a dropped invalid design shows its diagnostics and a placeholder', async () => {
  const name = 'card-layer-problems.json';
  const text = example(`invalid/${name}`);
  await drop(name, text);
  await page.locator('#preview-placeholder:not([hidden])').waitFor();
  assert.equal(await page.locator('#preview-image').isHidden(), true);
  assert.match(await page.locator('#preview-placeholder').textContent(), /No picture.*card design/s);
  await validate();
  assert.equal(await page.locator('#status .verdict').textContent(), 'Invalid');
  assert.ok(await page.locator('#diagnostics .diag').count() > 0, 'the diagnostics are listed');
  assert.equal(await page.locator('#preview-placeholder').isVisible(), true);
  // Edited into a design that draws: the picture comes back.
  await page.locator('#text').fill(example('valid/card.json'));
  await page.locator('#preview-image:not([hidden])').waitFor();
  assert.equal(await page.locator('#preview-placeholder').isHidden(), true);
  // JSON Lines have no picture.
  await page.getByLabel('JSON Lines').check();
  await page.locator('#preview').waitFor({ state: 'hidden' });
  await page.getByLabel('JSON Lines').uncheck();
  await page.getByRole('button', { name: 'Clear' }).click();
});

test('errors of the service and of the network are shown', async () => {
  await paste(example('valid/card.json'), 'card.json');
  // A kind the form does not offer: the service answers 400 with a problem.
  await page.getByLabel('Kind').evaluate((select) => {
    select.add(new Option('sideboard', 'sideboard'));
    select.value = 'sideboard';
  });
  const response = await fetch(`${base}/v1/validate?kind=sideboard`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  assert.equal(response.status, 400);
  const problem = await response.json();
  await validate();
  assert.equal(await page.locator('#status .verdict').textContent(), 'Not validated');
  assert.equal(await page.getByRole('alert').locator('p').textContent(), problem.detail);
  await page.getByLabel('Kind').selectOption('auto');

  await page.route('**/v1/validate**', (route) => route.abort('connectionrefused'));
  await validate();
  assert.match(await page.getByRole('alert').textContent(), /Could not reach the validation service/);
  await page.unroute('**/v1/validate**');

  // A report that stops half way.
  await page.route('**/v1/validate**', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"files":[' }),
  );
  await validate();
  assert.match(await page.getByRole('alert').textContent(), /The report was cut short or is not JSON/);
  await page.unroute('**/v1/validate**');
  await validate();
  assert.equal(await page.getByRole('alert').isHidden(), true);
});

test('a minified set opened: shown formatted, each diagnostic marked on the line of its value', async () => {
  const name = basename(minifiedSet);
  const bytes = readFileSync(minifiedSet);
  const text = bytes.toString('utf8');
  assert.equal(text.split('\n').length, 1, `${name} is on one line`);
  const pretty = JSON.stringify(JSON.parse(text), null, 2).split('\n');
  // As of the latest: read as of its own version, the set has few.
  const report = await apiReport(text, { kind: 'auto', name, as_of: 'latest' });
  const diagnostics = diagnosticsOf(report);
  assert.ok(diagnostics.length > PAGE_SIZE, `${name} has many diagnostics (${diagnostics.length})`);

  await page.locator('#file').setInputFiles(minifiedSet);
  await page.locator('#status', { hasText: `Opened ${name}` }).waitFor();
  assert.equal(await page.locator('#name').inputValue(), name);
  await page.getByLabel('As of version').fill('latest');
  await watchLongTasks();
  const took = await validate();
  const longest = await page.evaluate(() => window.longestTask);
  assert.ok(longest < 1500, `the longest task took ${longest} ms`);
  assert.equal(await page.locator('#status .verdict').textContent(), 'Invalid');

  // Formatted as JSON.stringify(…, null, 2) formats it, numbers as written.
  assert.equal(await page.getByLabel('Formatted', { exact: true }).isChecked(), true, 'a minified document is shown formatted');
  assert.match(await sourceMeta(), new RegExp(`^\\(${thousands(pretty.length)} lines as formatted, from 1 line, `));
  const top = await drawnLines();
  assert.ok(top.length > 20);
  for (const { line, text } of top) assert.equal(text, numbersAsParsed(pretty[line - 1]), `line ${line}`);

  // Each diagnostic names the file's own place, and is on the line of its
  // value: the character at its byte offset is its column's mark, and what
  // follows on that line is what follows in the file.
  assert.deepEqual(await listed(), expectedListing(diagnostics.slice(0, PAGE_SIZE)));
  await listAll();
  assert.deepEqual(await listed(), expectedListing(diagnostics));
  const { chosen, marked } = await chooseEach();
  assert.equal(chosen.length, diagnostics.length);
  const worst = new Map();
  for (const [i, d] of diagnostics.entries()) {
    assert.ok(chosen[i], `${d.code} at ${d.pointer} is drawn when chosen`);
    if (worst.get(chosen[i].line) !== 'error') worst.set(chosen[i].line, d.severity);
  }
  for (const [i, d] of diagnostics.entries()) {
    const row = chosen[i];
    const what = `${d.code} at ${d.pointer} (byte ${d.offset}), on line ${row.line}`;
    assert.ok(row.inView && row.classes.includes('is-current') && !row.cut, what);
    assert.ok(row.classes.includes(`is-${worst.get(row.line)}`), `${what}: marked ${worst.get(row.line)}`);
    assert.equal(row.text, numbersAsParsed(pretty[row.line - 1]), what);
    const from = bytes.subarray(d.offset, d.offset + 4096).toString('utf8');
    assert.ok(row.text.slice(row.mark).length > 0 && from.startsWith(row.text.slice(row.mark)), `${what}: ${row.text}`);
    // A missing member is marked at its object, an unknown one at its name.
    if (d.code === 'missing_field') assert.equal(row.text[row.mark], '{', what);
    if (d.code === 'unknown_field') assert.ok(row.text.trim().startsWith(`"${lastToken(d.pointer)}": `), what);
    assert.equal(row.where, `line ${thousands(row.line)} as formatted`);
  }
  // …and the lines marked are the lines of the diagnostics.
  assert.deepEqual(marked.sort((a, b) => a - b), [...worst.keys()].sort((a, b) => a - b));
  assert.match(await sourceMeta(), new RegExp(`, ${worst.size} marked\\)$`));

  // The file's own line, one of 3.6 MB, when asked for.
  await page.getByLabel('Formatted', { exact: true }).uncheck();
  assert.equal(await sourceMeta(), '(1 line, 1 marked)');
  await page.locator('#diagnostics .diag-button').nth(1).click();
  const own = await drawnLine(1);
  assert.ok(own.classes.includes('is-current'));
  assert.equal(own.mark, characterAt(text.slice(0, 2 * diagnostics[1].column + 10), diagnostics[1].column));
  assert.equal(await page.locator('#diagnostics .diag-where').count(), 0);
  await page.getByLabel('Formatted', { exact: true }).check();
  const back = await drawnLine(chosen[1].line);
  assert.ok(back && back.inView && back.classes.includes('is-current'), 'the chosen diagnostic stays chosen');
  console.log(`# ${name}: ${thousands(bytes.length)} bytes on 1 line, ${pretty.length} formatted, ${diagnostics.length} diagnostics; results in ${took} ms, longest task ${Math.round(longest)} ms`);
  await page.getByLabel('As of version').fill('');
});

test('as of auto is offered, and checks the minified set as of the version it declares', async () => {
  const name = basename(minifiedSet);
  const text = readFileSync(minifiedSet, 'utf8');
  const asOf = page.getByLabel('As of version');
  assert.deepEqual(await asOf.evaluate((input) => [...input.list.options].map((option) => option.value)), ['auto']);
  const report = await apiReport(text, { kind: 'auto', name, as_of: 'auto' });
  assert.equal(report.summary.invalid, 0, 'as of its own version the set is valid');
  await asOf.fill('auto');
  assert.equal(await page.getByLabel('Newer fields are errors').isDisabled(), false);
  await validate();
  assert.equal(await page.locator('#status .verdict').textContent(), 'Valid, with warnings');
  const note = report.files[0].reading.note;
  assert.match(note, /checked as of v\d+\.\d+\.\d+, the version its meta.version declares/);
  assert.ok((await page.locator('#status .file-note').textContent()).includes(note.slice(1)));
  assert.deepEqual(await listed(), expectedListing(diagnosticsOf(report).slice(0, PAGE_SIZE)));
  assert.equal(await page.getByLabel('Formatted', { exact: true }).isChecked(), true, 'the same text, the same view');
  await asOf.fill('');
});

test('the filters list the diagnostics of the severities and the code chosen, with their counts', async () => {
  const name = basename(minifiedSet);
  const text = readFileSync(minifiedSet, 'utf8');
  const diagnostics = diagnosticsOf(await apiReport(text, { kind: 'auto', name, warning_limit: '0', as_of: 'latest' }));
  // As of the latest (the next test reads what this one validated).
  await page.getByLabel('As of version').fill('latest');
  await page.getByLabel('List every warning').check();
  await validate();
  const of = (severity, code) =>
    diagnostics.filter((d) => (!severity || d.severity === severity) && (!code || d.code === code));
  const codes = [...new Set(diagnostics.map((d) => d.code))];
  assert.ok(of('error').length > 0 && of('warning').length > PAGE_SIZE && codes.length >= 2);
  const errors = page.locator('#show-errors');
  const warnings = page.locator('#show-warnings');
  const code = page.getByLabel('Code', { exact: true });

  /** The counts the filters show, and what is listed. */
  async function expect(shownDiagnostics, counts) {
    assert.equal(await page.locator('#errors-n').textContent(), `(${thousands(counts.errors)})`);
    assert.equal(await page.locator('#warnings-n').textContent(), `(${thousands(counts.warnings)})`);
    const options = await code.locator('option').allTextContents();
    assert.deepEqual(options, counts.codes);
    const total = shownDiagnostics.length;
    assert.equal(await page.locator('#diagnostics-heading').textContent(),
      total === diagnostics.length ? `Diagnostics (${thousands(total)})` : `Diagnostics (${thousands(total)} of ${thousands(diagnostics.length)})`);
    assert.deepEqual(await listed(), expectedListing(shownDiagnostics.slice(0, PAGE_SIZE)));
    if (total > PAGE_SIZE) assert.match(await page.locator('#more').textContent(), new RegExp(`of ${thousands(total)} diagnostics \\(and ${thousands(total - PAGE_SIZE)} more\\)`));
    else assert.equal(await page.locator('#more').isHidden(), true);
    // The lines marked are those of the diagnostics listed.
    for (const row of await drawnLines()) {
      if (row.classes.includes('is-error')) assert.ok(shownDiagnostics.some((d) => d.severity === 'error'), `line ${row.line} marked an error`);
      if (row.classes.includes('is-warning')) assert.ok(shownDiagnostics.some((d) => d.severity === 'warning'), `line ${row.line} marked a warning`);
    }
  }
  const byCount = [...codes].sort((a, b) => of(null, b).length - of(null, a).length || (a < b ? -1 : 1));
  const codeOptions = (severity) => [
    `every code (${thousands(of(severity).length)})`,
    ...byCount.map((c) => `${c} (${thousands(of(severity, c).length)})`),
  ];

  await expect(diagnostics, { errors: of('error').length, warnings: of('warning').length, codes: codeOptions(null) });
  await errors.uncheck();
  await expect(of('warning'), { errors: of('error').length, warnings: of('warning').length, codes: codeOptions('warning') });
  await errors.check();
  await warnings.uncheck();
  await expect(of('error'), { errors: of('error').length, warnings: of('warning').length, codes: codeOptions('error') });
  await warnings.check();
  for (const c of codes) {
    await code.selectOption(c);
    await expect(of(null, c), { errors: of('error', c).length, warnings: of('warning', c).length, codes: codeOptions(null) });
  }
  // Nothing of the code chosen among the severities chosen.
  const warningCode = of('warning')[0].code;
  await code.selectOption(warningCode);
  await warnings.uncheck();
  assert.match(await page.locator('#diagnostics').textContent(), /No diagnostic is of the severities and the code chosen/);
  assert.equal(await page.locator('#diagnostics .diag').count(), 0);
  assert.equal(await page.locator('#source .line.is-error, #source .line.is-warning').count(), 0);
  assert.match(await sourceMeta(), /, 0 marked\)$/);
  await warnings.check();
  await code.selectOption('');
  await expect(diagnostics, { errors: of('error').length, warnings: of('warning').length, codes: codeOptions(null) });
});

test('each diagnostic links to the explanations of its field and its code', async () => {
  const name = basename(minifiedSet);
  const text = readFileSync(minifiedSet, 'utf8');
  const diagnostics = diagnosticsOf(await apiReport(text, { kind: 'auto', name, warning_limit: '0', as_of: 'latest' }));
  const links = await page.locator('#diagnostics .diag').evaluateAll((items) =>
    items.map((item) => [...item.querySelectorAll('.diag-links a')].map((a) => ({ href: a.href, text: a.textContent, label: a.getAttribute('aria-label'), target: a.target }))),
  );
  assert.equal(links.length, PAGE_SIZE);
  // The links of each pointer and code fetched once.
  const fetched = new Map();
  const get = async (href) => {
    if (!fetched.has(href)) {
      const response = await fetch(href);
      fetched.set(href, { status: response.status, body: await response.json() });
    }
    return fetched.get(href);
  };
  for (const [i, [field, code]] of links.entries()) {
    const d = diagnostics[i];
    assert.equal(field.text, 'field');
    assert.equal(field.label, `the field ${d.field} explained, by the API`);
    // Under the names the body was read under (the page's switch off: each
    // document's own).
    assert.equal(field.href, `${base}/v1/explain/set?${new URLSearchParams({ pointer: d.pointer, names: 'auto' })}`);
    assert.equal(code.text, 'code');
    assert.equal(code.href, `${base}/v1/explain/code/${d.code}`);
    assert.ok(field.target === '_blank' && code.target === '_blank', 'the links open beside the page');
    const explained = await get(code.href);
    assert.equal(explained.status, 200);
    assert.equal(explained.body.code, d.code);
    assert.equal(explained.body.severity, d.severity);
    const place = await get(field.href);
    if (d.code === 'unknown_field') {
      // No such field: the API says so, and what its model has instead.
      assert.equal(place.status, 404);
      assert.match(place.body.detail, new RegExp(`has no member \`${lastToken(d.pointer)}\``));
    } else {
      assert.equal(place.status, 200, `${d.pointer} explained`);
      assert.equal(place.body.pointer, d.pointer);
      assert.ok(place.body.places.some((p) => `${p.row.model}.${p.row.name}` === d.field), `${d.pointer} is ${d.field}`);
    }
  }
  assert.ok(fetched.size >= 4);

  // Followed: the field's explanation opens in a tab of its own.
  const first = page.locator('#diagnostics .diag').first();
  const [tab] = await Promise.all([context.waitForEvent('page'), first.getByRole('link', { name: /^the field / }).click()]);
  await tab.waitForLoadState();
  assert.equal(tab.url(), links[0][0].href);
  const shownThere = JSON.parse(await tab.locator('body').innerText());
  assert.deepEqual(shownThere, (await get(links[0][0].href)).body);
  await tab.close();
  // The explanation in place is still there.
  await first.locator('.diag-explain summary').click();
  await first.locator('.explain-body dt').first().waitFor();
  await page.getByLabel('List every warning').uncheck();
  await page.getByLabel('As of version').fill('');
});

test('a raw file is read under the publishers\' names by default, and the spec\'s names switch names the way back', async () => {
  const name = basename(upstreamSet);
  const text = readFileSync(upstreamSet, 'utf8');
  const specNames = page.getByLabel('Spec\'s names only');
  const report = await apiReport(text, { kind: 'auto', name });
  assert.equal(report.summary.invalid, 0, 'read under the publishers\' names it is valid');
  assert.equal(report.files[0].reading.names, 'upstream');
  await paste(text, name);
  await validate();
  assert.equal(await page.locator('#status .verdict').textContent(), 'Valid, with warnings');
  assert.ok((await page.locator('#status .file-note').textContent()).includes('the publishers\' names'), 'the note says how it was read');
  assert.deepEqual(await listed(), expectedListing(diagnosticsOf(report).slice(0, PAGE_SIZE)));

  const spec = await apiReport(text, { kind: 'auto', name, names: 'spec' });
  assert.equal(spec.summary.invalid, 1, 'under the spec\'s names the raw set misses its icon code');
  assert.match(spec.files[0].note, /\?names=auto/);
  await specNames.check();
  await validate();
  assert.equal(await page.locator('#status .verdict').textContent(), 'Invalid');
  assert.ok((await page.locator('#status .file-note').textContent()).includes('?names=auto'), 'the note names the way out');
  await specNames.uncheck();
});

test('document content is shown as text, never as markup', async () => {
  // No double quotes in them: JSON would escape those.
  const hostile = '<img src=x onerror=window.injected=1>';
  const text = JSON.stringify({
    name: '</span><script>window.injected=2</script>',
    width: hostile,
    height: 1050,
    '<b onmouseover=window.injected=3>bold</b>': ['<iframe src=javascript:window.injected=4>'],
  }) + ' '.repeat(300);
  await paste(text, '<svg onload=window.injected=5>.json');
  await validate();
  assert.equal(await page.getByLabel('Formatted', { exact: true }).isChecked(), true);
  const report = await apiReport(text, { kind: 'auto', name: 'x.json' });
  assert.deepEqual(await listed(), expectedListing(diagnosticsOf(report)));
  for (const index of diagnosticsOf(report).keys()) await page.locator('#diagnostics .diag-button').nth(index).click();
  const source = (await drawnLines()).map((row) => row.text).join('\n');
  assert.ok(source.includes(hostile), 'the markup is shown as it is written');
  assert.ok((await page.locator('#diagnostics').textContent()).includes('<b onmouseover'));
  // The preview's own <img> aside, which shows a picture the service drew.
  assert.equal(await page.locator('main img:not(#preview-image), main script, main iframe, main b, main svg').count(), 0);
  await page.locator('#preview-placeholder:not([hidden])').waitFor();
  assert.equal(await page.evaluate(() => window.injected), undefined);
});

test('a minified document of a million lines: formatted, scrolled through, its last line reached', async () => {
  const text = `{"name": "x", "height": 1050, "a": [${'0, '.repeat(999999)}0], "width": "wide"}`;
  const report = await apiReport(text, { kind: 'auto', name: 'million.json' });
  const diagnostics = diagnosticsOf(report);
  assert.deepEqual(diagnostics.map((d) => d.code), ['unknown_field', 'wrong_type']);
  const lines = 1000007;
  await page.locator('#text').evaluate((area, text) => {
    area.value = text;
    area.dispatchEvent(new Event('input'));
  }, text);
  await page.locator('#name').fill('million.json');
  await watchLongTasks();
  const took = await validate();
  const longest = await page.evaluate(() => window.longestTask);
  assert.ok(longest < 1500, `the longest task took ${longest} ms`);
  assert.match(await sourceMeta(), new RegExp(`^\\(${thousands(lines)} lines as formatted, from 1 line, 2 marked\\)$`));
  const height = await page.locator('#source-spacer').evaluate((spacer) => spacer.offsetHeight);
  assert.ok(height <= 15000000, `the spacer is ${height} px tall`);

  // The last diagnostic, on the line before last, reached and marked.
  await page.locator('#diagnostics .diag-button').last().click();
  const last = await drawnLine(lines - 1, 1);
  assert.ok(last && last.inView && last.classes.includes('is-current') && last.classes.includes('is-error'));
  assert.equal(last.text, '  "width": "wide"');
  assert.equal(last.mark, '"');
  // Half way, and the end.
  await page.locator('#source').evaluate((view) => {
    view.scrollTop = (view.scrollHeight - view.clientHeight) / 2;
  });
  await page.waitForFunction(() => document.querySelector('#source .line[data-line="500000"]'));
  assert.ok((await drawnLine(500000, 1)).inView, 'the middle line is in view half way');
  assert.equal((await drawnLine(500000)).text, '    0,');
  await page.locator('#source').evaluate((view) => {
    view.scrollTop = view.scrollHeight;
  });
  await page.waitForFunction((n) => document.querySelector(`#source .line[data-line="${n}"]`), lines);
  // (Scaled, the lines are placed from the scroll offset, which the
  // browser rounds: within a pixel.)
  const end = await drawnLine(lines, 1);
  assert.ok(end.inView && end.text === '}', 'the last line is in view at the end');
  assert.ok((await page.locator('#source .line').count()) < 300);
  console.log(`# a million lines formatted from one: results in ${took} ms, longest task ${Math.round(longest)} ms`);
});

test('a real set of some MB: results soon, the page responsive, the DOM bounded', async () => {
  const text = readFileSync(largeSet, 'utf8');
  const lines = text.split('\n');
  const name = basename(largeSet);
  const report = await apiReport(text, { kind: 'auto', name, warning_limit: '0' });
  const diagnostics = diagnosticsOf(report);
  assert.ok(diagnostics.length > 2 * PAGE_SIZE, `a set with many diagnostics (${diagnostics.length})`);

  await page.locator('#text').evaluate((area, text) => {
    area.value = text;
    area.dispatchEvent(new Event('input'));
  }, text);
  await page.locator('#name').fill(name);
  await page.getByLabel('List every warning').check();
  await page.evaluate(() => {
    window.longestTask = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longestTask = Math.max(window.longestTask, entry.duration);
    }).observe({ type: 'longtask' });
  });
  const took = await validate();
  assert.ok(took < 20000, `results in ${took} ms`);
  const longest = await page.evaluate(() => window.longestTask);
  assert.ok(longest < 1500, `the longest task took ${longest} ms`);

  assert.equal(await page.locator('#diagnostics .diag').count(), PAGE_SIZE);
  const rest = diagnostics.length - PAGE_SIZE;
  assert.match(await page.locator('#more').textContent(), new RegExp(`and ${rest.toLocaleString('en-US')} more`));
  assert.deepEqual(await listed(), expectedListing(diagnostics.slice(0, PAGE_SIZE)));
  await page.getByRole('button', { name: /^Show \d+ more$/ }).click();
  assert.equal(await page.locator('#diagnostics .diag').count(), 2 * PAGE_SIZE);

  // A frame is drawn at once: nothing is left running.
  const frame = await page.evaluate(() => {
    const asked = performance.now();
    return new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now() - asked)));
  });
  assert.ok(frame < 500, `a frame after ${frame} ms`);

  // The last diagnostic listed, then the end of the source, are reached.
  const last = diagnostics[2 * PAGE_SIZE - 1];
  await page.locator('#diagnostics .diag-button').last().click();
  const row = await drawnLine(last.line);
  assert.ok(row && row.inView && row.classes.includes('is-current'), `line ${last.line} in view`);
  await page.locator('#source').evaluate((view) => {
    view.scrollTop = view.scrollHeight;
  });
  await page.waitForFunction((n) => document.querySelector(`#source .line[data-line="${n}"]`), lines.length);
  assert.equal((await drawnLine(lines.length)).text, lines[lines.length - 1]);

  const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
  const rows = await page.locator('#source .line').count();
  assert.ok(rows < 300, `${rows} source lines drawn of ${lines.length}`);
  assert.ok(nodes < 10000, `${nodes} elements in the page`);
  console.log(`# ${name}: ${lines.length} lines, ${diagnostics.length} diagnostics; results in ${took} ms, longest task ${Math.round(longest)} ms, ${nodes} elements`);
});

test('nothing went wrong in the page, and nothing left the service', () => {
  assert.deepEqual(faults, []);
  assert.deepEqual(foreign, []);
});

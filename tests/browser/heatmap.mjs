// SPDX-License-Identifier: GPL-2.0-only
// Drives headless Chromium over the FlameScope page of `ember heatmap
// --samples` and checks the in-page flame graph's search as a person uses
// it: Ctrl-F and a regular expression, "Matched: X%", the case toggle
// (Ctrl-I and "ic"), an invalid regex, search within a zoomed frame, the
// search kept in the URL and restored from it, Escape and Reset Search.
// Prints one "ok NAME" or "FAIL NAME: why" line per check, for
// tests/e2e/heatmap-browser.sh to count.
//
//   node heatmap.mjs PAGE.html EXPECT.json
//
// EXPECT.json, computed by the suite from the page's own data (not by the
// page's script): { last, total, regex, upper, all, zoomName, zoom } with
// all/zoom the percentages of samples matching regex in the whole
// selection and within the zoomed frame.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { check, expectEq, finish, launch } from "./harness.mjs";

const [pagePath, expectPath] = process.argv.slice(2);
const want = JSON.parse(readFileSync(expectPath, "utf8"));
const url = pathToFileURL(pagePath).href;
const SEARCH = "rgb(230,0,230)";
// "Matched: 41.7%" against a percentage, to the one decimal it shows.
function expectPct(text, pct, what) {
	const m = /^Matched: ([0-9.]+)%$/.exec(text);
	if (!m || Math.abs(parseFloat(m[1]) - pct) > 0.051)
		throw new Error(`${what}: got ${JSON.stringify(text)}, want Matched: ${pct.toFixed(2)}%`);
}

const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
const errors = [];
page.on("pageerror", (e) => errors.push(String(e)));
let answer = null;
page.on("dialog", (d) => (answer === null ? d.dismiss() : d.accept(answer)));

const matched = () => page.evaluate(() => document.getElementById("matched").textContent);
const hash = () => page.evaluate(() => decodeURIComponent(location.hash));
const search = async (term) => {
	answer = term;
	await page.keyboard.press("Control+f");
	answer = null;
};
// Fill of every drawn frame, by whether its name matches re.
const fills = (re, flags) =>
	page.evaluate(
		([re, flags]) => {
			const r = new RegExp(re, flags), out = { hit: [], miss: [] };
			for (const g of document.getElementById("flame").getElementsByTagName("g")) {
				const fill = g.getElementsByTagName("rect")[0].getAttribute("fill");
				(r.test(g.getAttribute("data-name")) ? out.hit : out.miss).push(fill);
			}
			return out;
		},
		[re, flags]
	);

await page.goto(`${url}#sel=0-${want.last}`);

await check("selection-loads", async () => {
	expectEq(await page.evaluate(() => window.emberHeatmap.total()), want.total, "samples");
	expectEq(await matched(), "", "no Matched line before a search");
	expectEq(await page.evaluate(() => document.getElementById("search").textContent), "Search",
		 "button");
	expectEq(errors, [], "page errors");
});

await check("search-ctrl-f", async () => {
	await search(want.regex);
	expectPct(await matched(), want.all, "whole selection");
	const f = await fills(want.regex, "");
	expectEq(f.hit.length > 0 && f.hit.every((c) => c === SEARCH), true, "matches highlighted");
	expectEq(f.miss.some((c) => c === SEARCH), false, "others not highlighted");
	expectEq(await page.evaluate(() => document.getElementById("search").textContent),
		 "Reset Search", "button");
	expectEq((await hash()).includes(`s=${want.regex}`), true, `search in URL (${await hash()})`);
});

await check("search-case-toggle", async () => {
	await search(want.upper);
	expectEq(await matched(), "Matched: 0.0%", "case-sensitive");
	await page.keyboard.press("Control+i");
	expectPct(await matched(), want.all, "ignoring case");
	expectEq((await hash()).includes("i=1"), true, "case in URL");
	await page.click("#ignorecase");
	expectEq(await matched(), "Matched: 0.0%", "case-sensitive again");
	expectEq((await hash()).includes("i=1"), false, "case gone from URL");
});

await check("search-invalid-regex", async () => {
	await search("(");
	expectEq(await matched(), "Invalid regex", "message");
	expectEq(errors, [], "page errors");
});

await check("search-within-zoom", async () => {
	await search(want.regex);
	const box = await page.evaluate((name) => {
		for (const g of document.getElementById("flame").getElementsByTagName("g"))
			if (g.getAttribute("data-name") === name)
				return g.getElementsByTagName("rect")[0].getBoundingClientRect().toJSON();
	}, want.zoomName);
	if (!box) throw new Error(`no frame ${want.zoomName}`);
	await page.mouse.click(box.x + Math.min(box.width / 2, 20), box.y + box.height / 2);
	expectPct(await matched(), want.zoom, `within ${want.zoomName}`);
	const f = await fills(want.regex, "");
	expectEq(f.hit.every((c) => c === SEARCH), true, "still highlighted after the redraw");
});

await check("search-from-url", async () => {
	await page.click("#reset");
	await page.keyboard.press("Control+i");
	const h = await page.evaluate(() => location.hash);
	await page.goto("about:blank");
	await page.goto(url + h);
	expectPct(await matched(), want.all, "search restored");
	expectEq(await page.evaluate(() => document.getElementById("ignorecase").className), "show",
		 "case toggle restored");
	expectEq(await page.evaluate(() => window.emberHeatmap.total()), want.total, "selection");
	expectEq(errors, [], "page errors");
});

await check("search-kept-across-selections", async () => {
	const got = await page.evaluate(() => {
		window.emberHeatmap.select(0, 0, 0, 0);
		return document.getElementById("matched").textContent;
	});
	if (!/^Matched: [0-9.]+%$/.test(got)) throw new Error(`after a new selection: ${got}`);
	await page.evaluate((last) => {
		const rows = JSON.parse(document.getElementById("ember-data").textContent).rows;
		window.emberHeatmap.select(0, 0, Math.floor(last / rows), last % rows);
	}, want.last);
	expectPct(await matched(), want.all, "back to all");
});

await check("reset-search", async () => {
	await page.click("#search");
	expectEq(await matched(), "", "Matched line gone");
	const f = await fills(want.regex, "i");
	expectEq(f.hit.concat(f.miss).some((c) => c === SEARCH), false, "highlight gone");
	expectEq(await page.evaluate(() => document.getElementById("search").textContent), "Search",
		 "button");
	expectEq((await hash()).includes("s="), false, "search gone from URL");
});

await check("escape-resets", async () => {
	await search(want.regex);
	await page.keyboard.press("Escape");
	expectEq(await matched(), "", "Matched line gone");
	expectEq(errors, [], "page errors");
});

await finish(browser);

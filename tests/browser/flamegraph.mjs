// SPDX-License-Identifier: GPL-2.0-only
// Drives headless Chromium over a flame graph SVG of ember flamegraph and
// checks what the page shows after each thing a person does: hovering,
// searching (Ctrl-F, regex, case toggle), zooming, resetting, and coming
// back through the URL. Prints one "ok NAME" or "FAIL NAME: why" line per
// check, for tests/e2e/flamegraph-browser.sh to count.
//
//   node flamegraph.mjs FILE.svg [SCREENSHOT.png]
//
// FILE.svg is drawn from this folded input (total 120):
//   prog;main;parse;lex 50  prog;main;parse 10  prog;main;eval;add 25
//   prog;main;eval;mul 15   prog;main 5         other;start;work 15
import { pathToFileURL } from "node:url";
import { check, expectEq, finish, launch } from "./harness.mjs";

const [svgPath, shot] = process.argv.slice(2);
const url = pathToFileURL(svgPath).href;
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1300, height: 500 } });
const errors = [];
page.on("pageerror", (e) => errors.push(String(e)));
// search_prompt() asks with window.prompt(); the test answers it.
let answer = null;
page.on("dialog", (d) => (answer === null ? d.dismiss() : d.accept(answer)));

// What one frame shows: its rect, label, class, fill; found by name.
const frame = (name) =>
	page.evaluate((name) => {
		for (const g of document.getElementById("frames").children) {
			const t = g.querySelector("title").textContent;
			if (t.substring(0, t.lastIndexOf(" (")) !== name) continue;
			const r = g.querySelector("rect");
			return {
				title: t,
				x: parseFloat(r.getAttribute("x")),
				width: parseFloat(r.getAttribute("width")),
				fill: r.getAttribute("fill"),
				label: g.querySelector("text").textContent,
				cls: g.getAttribute("class") || "",
				shown: getComputedStyle(g).display !== "none",
			};
		}
		return null;
	}, name);
const text = (id) => page.evaluate((id) => document.getElementById(id).textContent, id);
const shown = (id) =>
	page.evaluate((id) => getComputedStyle(document.getElementById(id)).display !== "none", id);
const query = () => page.evaluate(() => window.location.search);
const search = async (term) => {
	answer = term;
	await page.keyboard.press("Control+f");
	answer = null;
};
// Clicks the middle of a frame's rectangle, as a person would.
const click = async (name) => {
	const f = await frame(name);
	const box = await page.evaluate((name) => {
		for (const g of document.getElementById("frames").children) {
			const t = g.querySelector("title").textContent;
			if (t.substring(0, t.lastIndexOf(" (")) === name) {
				const b = g.querySelector("rect").getBoundingClientRect();
				return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
			}
		}
	}, name);
	if (!f || !box) throw new Error(`no frame ${name}`);
	await page.mouse.click(box.x, box.y);
};

await page.goto(url);

await check("loads", async () => {
	expectEq(await text("title"), "Flame Graph", "title");
	const n = await page.evaluate(() => document.getElementById("frames").children.length);
	expectEq(n, 11, "frames");
	expectEq(await shown("unzoom"), false, "Reset Zoom shown before any zoom");
	expectEq(errors, [], "page errors");
});

await check("tooltip-and-details", async () => {
	const lex = await frame("lex");
	expectEq(lex.title, "lex (50 samples, 41.67%)", "tooltip");
	const b = await page.evaluate(() => {
		for (const g of document.getElementById("frames").children)
			if (g.querySelector("title").textContent.startsWith("lex ("))
				return g.querySelector("rect").getBoundingClientRect().toJSON();
	});
	await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
	expectEq(await text("details"), "Function: lex (50 samples, 41.67%)", "details line");
});

await check("widths-follow-counts", async () => {
	const all = await frame("all"), parse = await frame("parse"), lex = await frame("lex");
	expectEq(all.width, 1180, "root width");
	// 60 and 50 of 120 samples of 1180 pixels
	expectEq(Math.abs(parse.width - 590) <= 0.1, true, `parse width ${parse.width}`);
	expectEq(Math.abs(lex.width - 491.7) <= 0.1, true, `lex width ${lex.width}`);
});

await check("search-regex", async () => {
	await search("^(lex|add)$");
	expectEq(await text("matched"), "Matched: 62.5%", "matched");
	expectEq((await frame("lex")).fill, "rgb(230,0,230)", "lex highlighted");
	expectEq((await frame("add")).fill, "rgb(230,0,230)", "add highlighted");
	expectEq((await frame("mul")).fill !== "rgb(230,0,230)", true, "mul not highlighted");
	expectEq(await text("search"), "Reset Search", "search button");
	expectEq(new URLSearchParams(await query()).get("s"), "^(lex|add)$", "search in URL");
});

await check("search-nested-counted-once", async () => {
	// parse (60) holds lex (50): 60 of 120, not 110.
	await search("^(parse|lex)$");
	expectEq(await text("matched"), "Matched: 50.0%", "matched");
});

await check("search-case-toggle", async () => {
	await search("^LEX$");
	expectEq(await text("matched"), "Matched: 0.0%", "case-sensitive");
	await page.keyboard.press("Control+i");
	expectEq(await text("matched"), "Matched: 41.7%", "ignoring case");
	expectEq(new URLSearchParams(await query()).get("i"), "1", "case in URL");
	await page.click("#ignorecase");
	expectEq(await text("matched"), "Matched: 0.0%", "case-sensitive again");
	expectEq(new URLSearchParams(await query()).get("i"), null, "case gone from URL");
});

await check("search-invalid-regex", async () => {
	await search("(");
	expectEq(await text("matched"), "Invalid regex", "message");
	expectEq(errors, [], "page errors");
});

await check("zoom", async () => {
	await search("^lex$");
	await click("parse");
	const parse = await frame("parse"), lex = await frame("lex"), main = await frame("main");
	const evalf = await frame("eval"), other = await frame("other");
	expectEq([parse.x, parse.width], [10, 1180], "zoomed frame fills the width");
	expectEq(Math.abs(lex.width - 983.3) <= 0.1, true, `lex width ${lex.width}`);
	expectEq(lex.label, "lex", "label");
	expectEq([main.cls, main.width], ["parent", 1180], "ancestor");
	expectEq([evalf.shown, other.shown], [false, false], "others hidden");
	expectEq(await shown("unzoom"), true, "Reset Zoom shown");
	expectEq(await text("matched"), "Matched: 83.3%", "matched within the zoom");
	const q = new URLSearchParams(await query());
	expectEq([q.has("z"), q.get("s")], [true, "^lex$"], "zoom and search in URL");
});

await check("zoom-from-url", async () => {
	const q = await query();
	await page.goto(url + q);
	const parse = await frame("parse");
	expectEq([parse.x, parse.width], [10, 1180], "zoom restored");
	expectEq((await frame("eval")).shown, false, "others hidden");
	expectEq(await text("matched"), "Matched: 83.3%", "search restored");
	expectEq((await frame("lex")).fill, "rgb(230,0,230)", "highlight restored");
	expectEq(errors, [], "page errors");
});

await check("zoom-ancestor", async () => {
	await click("main");
	const main = await frame("main"), evalf = await frame("eval");
	expectEq([main.width, main.cls], [1180, ""], "main zoomed");
	expectEq(evalf.shown, true, "eval back");
	expectEq((await frame("other")).shown, false, "other still hidden");
});

if (shot) await page.screenshot({ path: shot });

await check("reset-zoom", async () => {
	await page.click("#unzoom");
	const all = await frame("all"), parse = await frame("parse"), other = await frame("other");
	expectEq(all.width, 1180, "root");
	expectEq(Math.abs(parse.width - 590) <= 0.1, true, `parse width ${parse.width}`);
	expectEq([other.shown, parse.cls], [true, ""], "everything back");
	expectEq(await shown("unzoom"), false, "Reset Zoom hidden");
	expectEq(new URLSearchParams(await query()).has("z"), false, "zoom gone from URL");
	expectEq(await text("matched"), "Matched: 41.7%", "search kept, against the whole");
});

await check("reset-search", async () => {
	await page.click("#search");
	expectEq(await shown("matched"), false, "Matched line hidden");
	expectEq((await frame("lex")).fill !== "rgb(230,0,230)", true, "highlight gone");
	expectEq(await text("search"), "Search", "button");
	expectEq(await query(), "", "URL clean");
	expectEq(errors, [], "page errors");
});

await finish(browser);

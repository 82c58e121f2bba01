// SPDX-License-Identifier: GPL-2.0-only
// What every page script here shares: headless Chromium, one "ok NAME" or
// "FAIL NAME: why" line per check for the e2e suite to count, and the exit
// status (1 when any check failed).
import { chromium } from "playwright-core";

let failures = 0;

function report(name, ok, why) {
	if (ok) {
		console.log(`ok   ${name}`);
	} else {
		failures++;
		console.log(`FAIL ${name}: ${why}`);
	}
}

// check NAME FN: FN passes unless it throws or returns a reason (a string).
export async function check(name, fn) {
	try {
		const why = await fn();
		report(name, why === true || why === undefined, why);
	} catch (err) {
		report(name, false, String(err && err.message ? err.message : err).split("\n")[0]);
	}
}

export function expectEq(got, want, what) {
	if (JSON.stringify(got) !== JSON.stringify(want))
		throw new Error(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
}

// Chromium as the suites set it up ($CHROMIUM), without sandbox or GPU.
export function launch() {
	return chromium.launch({
		executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
		args: ["--no-sandbox", "--disable-gpu"],
	});
}

export async function finish(browser) {
	await browser.close();
	process.exit(failures ? 1 : 0);
}

#!/usr/bin/env python3
"""Opens every page of a DocC static site in headless Chromium at 1280 px and fails on what a reader
would see broken: content cut at the right, a missing image, a broken internal link.

  check-docs-in-browser.py BASE_URL [--screenshots DIR]

BASE_URL is the site's root as served (e.g. http://127.0.0.1:8000/futures/). Starts at the landing page
(BASE_URL + documentation/futures) and renders it and every page it links to (every article, every
symbol of its topics; `--depth 2` goes one level further), and checks on each rendered page:
  - horizontal overflow of the page (document scrollWidth > window.innerWidth);
  - a code block (`pre`) or a table whose content is wider than its box (scrollWidth > clientWidth);
  - an image that did not load (naturalWidth == 0 once loading is over);
  - a diagram (an SVG image) with a text that does not fit inside the drawing, opened on its own, in the
    fonts of the machine (Linux's DejaVu Sans is wider than the fonts a diagram is usually drawn with);
  - every link on it to a page of the site: its page data (data/documentation/….json, what DocC's app
    loads, and shows "page not found" without) must be served; rendered pages are also checked for DocC's
    "page not found" in the browser.
Run by scripts/check-docs-in-browser.sh, which builds and serves the site.
"""
import argparse
import pathlib
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import urldefrag, urljoin, urlparse

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

WIDTH, HEIGHT = 1280, 900
# Symbol pages whose declaration (the public signature, laid out by DocC) is wider than the 718 px column at
# 1280 px: DocC breaks a long declaration at its parameters, but not a one-parameter function, an operator or
# a type alias, and lets that box scroll. Shortening them means changing the public API. A declaration cut on
# any other page fails, and so does an entry here that no longer needs to be.
WIDE_DECLARATIONS = {
    "futures/cancellationtoken/oncancellationrequested(_:)",
    "futures/taskcancellationpolicy",
    "futures/future/zip(_:file:line:)-swift.type.method",
    "futures/__(_:_:)-1do4p",
    "futures/__(_:_:)-8ovlq",
    # The `while:` parameter with its default, `FuturesError.isTransient`, is one line wider than the column.
    "futures/future/retry(_:backoff:clock:while:file:line:_:)",
}
SCREENSHOTS = {"futures": "landing", "futures/performance": "performance", "futures/cancellation": "cancellation"}

# Everything is measured in the page, once DocC's single-page app has rendered the content.
READY = """
const main = document.querySelector('main');
if (!main) return false;
if (document.querySelector('.not-found, .generic-error')) return true;
return !!document.querySelector('main .documentation-hero, main .content, main h1');
"""

MEASURE = """
const problems = [];
const doc = document.documentation || document.documentElement;
if (document.documentElement.scrollWidth > window.innerWidth) {
  problems.push(`page overflows: scrollWidth ${document.documentElement.scrollWidth} > innerWidth ${window.innerWidth}`);
}
const declarations = [];
// A box is cut when its content is wider than it and it clips or scrolls (DocC puts code listings and
// tables in scrolling containers, so the pre or table itself is not always the box that scrolls).
for (const el of document.querySelectorAll('main *')) {
  if (el.scrollWidth <= el.clientWidth + 1 || el.clientWidth === 0) continue;
  if (getComputedStyle(el).overflowX === 'visible') continue;
  const inner = el.matches('pre, table') ? el : el.querySelector('pre, table');
  const what = inner ? inner.tagName.toLowerCase() : el.tagName.toLowerCase() + '.' + el.className;
  const text = ((inner || el).innerText || '').trim().split('\\n')[0].slice(0, 70);
  const message = `${what} cut at the right (${el.scrollWidth} > ${el.clientWidth} px): ${text}`;
  (el.closest('.declaration, .declaration-group, .declaration-list') ? declarations : problems).push(message);
}
for (const img of document.querySelectorAll('main img')) {
  if (!img.complete || img.naturalWidth === 0) {
    problems.push(`image not loaded: ${img.currentSrc || img.src} (alt: ${(img.alt || '').slice(0, 60)})`);
  }
}
const svgs = [...document.querySelectorAll('main img')].map(i => i.currentSrc || i.src).filter(u => /\.svg(\?|$)/.test(u));
const notFound = !!document.querySelector('.not-found, .generic-error');
const links = [...document.querySelectorAll('a[href]')].map(a => a.href);
return {problems, declarations, notFound, links, svgs, title: document.title};
"""


# Opened on its own, a diagram's every text must lie inside the drawing, in the fonts this machine has (a
# title measured in one font and rendered in a wider one is cut at the right edge).
SVG_TEXT_FITS = """
const svg = document.documentElement;
const width = svg.viewBox.baseVal.width || svg.width.baseVal.value;
const cut = [];
// In the fonts the diagram asks for, then in DejaVu Sans, the widest of the usual Linux fonts (what a
// machine without Helvetica's or Arial's metric twins renders it in).
for (const family of [null, "'DejaVu Sans'"]) {
  if (family) svg.style.fontFamily = family;
  for (const t of svg.querySelectorAll('text')) {
    const box = t.getBBox();
    if (box.x < -0.5 || box.x + box.width > width + 0.5) {
      cut.push(`${family || 'its own font'}: "${t.textContent.slice(0, 50)}" spans ${box.x.toFixed(0)}…` +
               `${(box.x + box.width).toFixed(0)} of ${width}`);
    }
  }
}
return cut;
"""


def page_key(url, base):
    path = urlparse(url).path
    root = urlparse(base).path.rstrip("/") + "/documentation/"
    return path[len(root):].strip("/").lower() if path.startswith(root) else None


def screenshots(driver, folder, name):
    """The page at 1280 px, one viewport-high PNG after another (name-1.png, name-2.png, …)."""
    folder.mkdir(parents=True, exist_ok=True)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    part, top = 1, 0
    while top < height:
        driver.execute_script(f"window.scrollTo(0, {top})")
        time.sleep(0.3)
        driver.save_screenshot(str(folder / f"{name}-{part}.png"))
        part, top = part + 1, top + HEIGHT - 40
    driver.execute_script("window.scrollTo(0, 0)")


def data_loads(base, key):
    """Whether the page data DocC's app loads for a page is served (without it: "page not found")."""
    url = urljoin(base, f"data/documentation/{key}.json")
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status == 200
    except (urllib.error.URLError, TimeoutError):
        return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("--screenshots", type=pathlib.Path)
    parser.add_argument("--depth", type=int, default=1, help="link levels rendered below the landing page")
    parser.add_argument("--only", action="append", default=[],
                        help="render only this page (e.g. futures/performance; repeatable), for a quick look")
    args = parser.parse_args()
    base = args.base if args.base.endswith("/") else args.base + "/"

    options = Options()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--hide-scrollbars", f"--window-size={WIDTH},{HEIGHT}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(60)
    # The window's outer size includes no chrome in headless mode; make the layout viewport exactly 1280.
    driver.set_window_size(WIDTH, HEIGHT)
    inner = driver.execute_script("return window.innerWidth")
    if inner != WIDTH:
        driver.set_window_size(WIDTH + (WIDTH - inner), HEIGHT)

    start = urljoin(base, "documentation/futures")
    queue, seen, failures, checked = [(start, 0)], {page_key(start, base)}, [], 0
    if args.only:
        queue = [(urljoin(base, f"documentation/{key}"), args.depth) for key in args.only]
        seen = set(args.only)
    linked_from, data_checked, wide_seen, diagrams = {}, {}, set(), {}
    while queue:
        url, depth = queue.pop(0)
        key = page_key(url, base)
        try:
            driver.get(url)
            WebDriverWait(driver, 30).until(lambda d: d.execute_script(READY))
        except TimeoutException:
            failures.append(f"{key}: did not render (linked from {linked_from.get(key, 'the start')})")
            continue
        # Images and fonts settle after the content: wait for every image to finish loading.
        deadline = time.time() + 10
        while time.time() < deadline and not driver.execute_script(
                "return [...document.images].every(i => i.complete)"):
            time.sleep(0.1)
        # DocC loads images lazily: bring each into view so that it loads, then wait for it.
        driver.execute_script("for (const i of document.querySelectorAll('main img')) i.loading = 'eager';"
                              "for (const i of document.querySelectorAll('main img')) i.scrollIntoView();"
                              "window.scrollTo(0, 0);")
        deadline = time.time() + 10
        while time.time() < deadline and not driver.execute_script(
                "return [...document.images].every(i => i.complete)"):
            time.sleep(0.1)
        result = driver.execute_script(MEASURE)
        checked += 1
        if result["notFound"]:
            failures.append(f"{key}: DocC shows 'page not found' (linked from {linked_from.get(key, 'the start')})")
            continue
        for problem in result["problems"]:
            failures.append(f"{key}: {problem}")
        for image in result["svgs"]:
            diagrams.setdefault(image, key)
        if key in WIDE_DECLARATIONS:
            wide_seen.add(key)
        else:
            failures += [f"{key}: declaration {problem}" for problem in result["declarations"]]
        if key in WIDE_DECLARATIONS and not result["declarations"]:
            failures.append(f"{key}: its declaration fits now: remove it from WIDE_DECLARATIONS")
        if args.screenshots and key in SCREENSHOTS:
            screenshots(driver, args.screenshots, SCREENSHOTS[key])
        for link in result["links"]:
            link = urldefrag(link)[0]
            target = page_key(link, base)
            if target is None or urlparse(link).netloc != urlparse(base).netloc:
                continue
            if target not in data_checked:
                data_checked[target] = data_loads(base, target)
                if not data_checked[target]:
                    failures.append(f"{key}: broken link to {link} (no page data)")
            if target in seen or depth >= args.depth or not data_checked[target]:
                continue
            seen.add(target)
            linked_from[target] = key
            queue.append((link, depth + 1))
    for image, key in diagrams.items():
        driver.get(image)
        for cut in driver.execute_script(SVG_TEXT_FITS):
            failures.append(f"{key}: diagram {image.rsplit('/', 1)[-1]}: text cut at the edge: {cut}")
    driver.quit()
    if args.depth >= 1 and not args.only:
        failures += [f"{key}: listed in WIDE_DECLARATIONS but not rendered" for key in WIDE_DECLARATIONS - wide_seen]

    for failure in failures:
        print("FAIL:", failure)
    print(f"{checked} pages rendered and checked at {WIDTH} px, {len(diagrams)} diagrams, "
          f"{len(data_checked)} link targets checked, "
          f"{len(failures)} problem(s)")
    sys.exit(1 if failures or checked == 0 else 0)


if __name__ == "__main__":
    main()

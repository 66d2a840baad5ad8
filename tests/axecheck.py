"""axe-core (from the ``axe-playwright-python`` test dependency, MPL-2.0) in a Playwright page.

:func:`violations` runs the rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best
practices for landmarks and regions, and returns each rule broken with the elements breaking it.
Nothing is fetched: the script ships inside the package.
"""

from __future__ import annotations

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
LANDMARK_RULES = ["landmark-one-main", "landmark-unique", "region", "page-has-heading-one",
                  "landmark-no-duplicate-main", "landmark-complementary-is-top-level"]


def violations(page) -> list[tuple[str, str, list[str]]]:
    """(rule id, help text, targets) of every rule the page breaks."""
    from axe_playwright_python.sync_playwright import Axe

    found = []
    for options in ({"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]},
                    {"runOnly": {"type": "rule", "values": LANDMARK_RULES}, "resultTypes": ["violations"]}):
        results = Axe().run(page, options=options)
        for rule in results.response["violations"]:
            targets = [" ".join(map(str, node["target"])) for node in rule["nodes"]]
            found.append((rule["id"], rule["help"], targets[:5]))
    return found


def axe_version(page) -> str:
    return page.evaluate("window.axe ? axe.version : ''")

"""Debian's headless Chromium driven by Selenium, for the tests that read pages as a browser shows them (the report,
the workbench). Needs chromium and chromium-driver (`make install-dev` installs them); without them the test fails."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


@contextmanager
def chromium(width: int, height: int) -> Iterator[webdriver.Chrome]:
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not shutil.which(path)]
    if missing:
        pytest.fail(f"{' and '.join(missing)} missing: apt-get install chromium chromium-driver "
                    f"(make install-dev does it)", pytrace=False)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()

"""The report fonts and the XSD travel with the package (wheel and PyInstaller binary)."""

import pathlib
import tomllib
from importlib import resources

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_fonts_their_license_and_the_xsd_are_package_data():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    package_data = project["tool"]["setuptools"]["package-data"]["rentalcomply"]
    assert "authorities/aade/fonts/*" in package_data and "authorities/aade/*.xsd" in package_data
    folder = resources.files("rentalcomply.authorities.aade")
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "LICENSE-DejaVu.txt"):
        assert folder.joinpath("fonts").joinpath(name).is_file()
    assert folder.joinpath("aade-report.xsd").is_file()


def test_the_binary_build_knows_lxml():
    assert '"lxml.etree"' in (ROOT / "rentalcomply.spec").read_text()

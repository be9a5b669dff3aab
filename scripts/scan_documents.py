"""Generates photos of made-up passports (TD3) and identity cards (TD1) for the document scanner's
benchmark and tests: a data page with a photo, printed fields and a machine-readable zone in OCR-B
(Debian's fonts-ocr-b) with real check digits. Half are clean scans; half are degraded the way a
guest's phone photo is: a larger picture with the document on a table, turned by up to 5 degrees,
blurred, lit unevenly, noisy and JPEG-compressed. A fixed seed makes the same set every time; no
network is needed.

    python scripts/scan_documents.py OUT_DIR [--count 60] [--seed 29]

Each image NAME.jpg/.png has NAME.json beside it: the zone's lines and whether it is degraded.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import random
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

if __package__ in (None, ""):  # run as a script: the package is one folder up
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from rentalcomply.scan.mrz import compose  # noqa: E402

OCR_B = "/usr/share/fonts/opentype/ocr-b/OCRB.otf"
SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SANS_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
# Millimetres (ICAO 9303): the page or card, and the zone's pitch of 10 characters an inch.
SIZES_MM = {"TD3": (125.0, 88.0), "TD1": (85.6, 54.0)}
PITCH_MM = 2.54
LINE_PITCH_MM = 4.0

SURNAMES = ["ERIKSSON", "PAPADOPOULOS", "GARCIA<LOPEZ", "MUELLER", "OCONNOR", "DUBOIS",
            "ROSSI", "NOWAK", "SILVA<SANTOS", "VAN<DER<BERG", "KOWALSKI", "OEZTUERK", "JOHANSSON",
            "BAKER", "NGUYEN", "SCHMIDT", "FERREIRA", "MARTIN", "KARAGIANNI", "BIANCHI", "ZAWADZKI",
            "QUINN", "OKAFOR", "LEHTINEN", "HAUGEN"]
GIVEN = ["ANNA<MARIA", "GIORGOS", "JOSE<LUIS", "JUERGEN", "SIOBHAN", "CLAIRE", "MARCO", "ZOFIA",
         "JOAO<PEDRO", "PIETER", "KAROLINA", "AYSE", "ERIK", "BEN", "LINH", "KLAUS<DIETER",
         "BEATRIZ", "LUC", "ELENI", "GIULIA", "XAVIER", "YANNICK", "VIKTOR", "IDA"]
COUNTRIES = ["GRC", "ITA", "ESP", "D<<", "FRA", "PRT", "GBR", "NLD", "POL", "SWE", "AUT", "IRL",
             "USA", "CAN", "BEL", "FIN", "NOR", "CHE"]


def identity(rng: random.Random, layout: str) -> dict[str, str]:
    def digits(n):
        return "".join(rng.choice("0123456789") for _ in range(n))

    def mixed(n):
        return "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789") for _ in range(n))
    country = rng.choice(COUNTRIES)
    birth = f"{rng.randint(40, 99):02d}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
    expiry = f"{rng.randint(24, 36):02d}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
    values = dict(
        document_code="P" if layout == "TD3" else rng.choice(["ID", "I", "IR", "AC"]),
        issuing_country=country, nationality=country,
        name=f"{rng.choice(SURNAMES)}<<{rng.choice(GIVEN)}", number=mixed(rng.choice([8, 9])),
        birth_date=birth, sex=rng.choice("MF"), expiry_date=expiry,
        optional=rng.choice(["", digits(10), mixed(7)]) if layout == "TD3"
        else rng.choice(["", digits(8) + rng.choice("TRWAGMYFPDXBNJZ"), mixed(6)]),
    )
    if layout == "TD1":
        values["optional_2"] = rng.choice(["", digits(4)])
    return values


def data_page(values: dict[str, str], lines: list[str], layout: str, px_per_mm: float,
              rng: random.Random) -> Image.Image:
    """The document as printed: tinted paper with fine lines, a photo, labelled fields, the zone."""
    width_mm, height_mm = SIZES_MM[layout]
    width, height = round(width_mm * px_per_mm), round(height_mm * px_per_mm)
    tint = tuple(rng.randint(225, 250) for _ in range(3))
    page = Image.new("RGB", (width, height), tint)
    draw = ImageDraw.Draw(page)
    for k in range(0, height, max(2, round(px_per_mm * 1.5))):  # the security print's fine waves
        points = [(x, k + math.sin(x / (px_per_mm * 6) + k) * px_per_mm)
                  for x in range(0, width, max(1, width // 80))]
        draw.line(points, fill=tuple(c - 18 for c in tint), width=1)
    mm = px_per_mm
    title = ImageFont.truetype(SANS_BOLD, round(4 * mm))
    label = ImageFont.truetype(SANS, round(1.8 * mm))
    value = ImageFont.truetype(SANS_BOLD, round(2.8 * mm))
    draw.text((4 * mm, 3 * mm), "PASSPORT" if layout == "TD3" else "IDENTITY CARD",
              font=title, fill=(40, 50, 90))
    photo = (4 * mm, 10 * mm, (4 + 0.28 * width_mm) * mm, (10 + 0.38 * width_mm) * mm)
    draw.rectangle(photo, fill=(190, 185, 180))
    cx, cy = (photo[0] + photo[2]) / 2, (photo[1] + photo[3]) / 2
    draw.ellipse((cx - 6 * mm, cy - 9 * mm, cx + 6 * mm, cy + 5 * mm), fill=(120, 100, 90))
    surname, _, given = values["name"].partition("<<")
    rows = [("Surname / Nom", surname.replace("<", " ")), ("Given names / Prénoms",
            given.replace("<", " ")), ("Nationality", values["nationality"].strip("<")),
            ("Date of birth", values["birth_date"]), ("Sex", values["sex"]),
            ("Date of expiry", values["expiry_date"]), ("Document no.", values["number"])]
    x = photo[2] + 4 * mm
    y = 10 * mm
    step = (5.5 if layout == "TD3" else 3.6) * mm
    for caption, text in rows[: 7 if layout == "TD3" else 5]:
        draw.text((x, y), caption, font=label, fill=(80, 80, 110))
        draw.text((x, y + 1.9 * mm), text, font=value, fill=(20, 20, 30))
        y += step + (0 if layout == "TD3" else 1 * mm)
    # The zone: OCR-B at the ICAO pitch, every character placed on its own cell.
    pitch = PITCH_MM * mm
    font = ImageFont.truetype(OCR_B, round(pitch / 0.723))
    left = (width - pitch * len(lines[0])) / 2
    bottom = height - 3.5 * mm
    top = bottom - LINE_PITCH_MM * mm * len(lines)
    draw.rectangle((0, top - 2 * mm, width, height), fill=tuple(min(255, c + 5) for c in tint))
    for row, line in enumerate(lines):
        for column, char in enumerate(line):
            draw.text((left + column * pitch, top + row * LINE_PITCH_MM * mm), char, font=font,
                      fill=(15, 15, 20))
    return page


PHONE_SIZES = [(4032, 3024), (3024, 4032), (2560, 1920), (1920, 1440), (3264, 2448)]


def degrade(page: Image.Image, rng: random.Random, size: tuple[int, int] | None = None
            ) -> Image.Image:
    """A phone photo of the page: on a table, turned, unevenly lit, blurred, noisy."""
    canvas_w, canvas_h = rng.choice(PHONE_SIZES)
    if size:  # tests: a smaller photo is made faster
        canvas_w, canvas_h = size
    target_w = canvas_w * rng.uniform(0.55, 0.85)
    page = page.resize((round(target_w), round(target_w * page.height / page.width)),
                       Image.LANCZOS)
    angle = rng.uniform(1.0, 5.0) * rng.choice([-1, 1])
    page = page.convert("RGBA").rotate(angle, resample=Image.BICUBIC, expand=True)
    table = tuple(rng.randint(60, 170) for _ in range(3))
    canvas = Image.new("RGB", (canvas_w, canvas_h), table)
    x = rng.randint(0, max(0, canvas_w - page.width))
    y = rng.randint(0, max(0, canvas_h - page.height))
    canvas.paste(page, (x, y), page)
    array = np.asarray(canvas).astype(np.float32)
    # Uneven light: a lamp on one side, shadow on the other.
    gy, gx = np.mgrid[0:canvas_h, 0:canvas_w].astype(np.float32)
    lx, ly = rng.uniform(0, canvas_w), rng.uniform(0, canvas_h)
    distance = np.hypot(gx - lx, gy - ly) / max(canvas_w, canvas_h)
    light = rng.uniform(1.0, 1.15) - rng.uniform(0.3, 0.6) * distance
    array *= light[..., None]
    array += np.random.default_rng(rng.randint(0, 2**31)).normal(0, rng.uniform(3, 12),
                                                                 array.shape)
    canvas = Image.fromarray(np.clip(array, 0, 255).astype(np.uint8))
    blur = rng.uniform(0.8, 2.2) * target_w / 1500
    canvas = canvas.filter(ImageFilter.GaussianBlur(blur))
    return canvas


def make_set(out_dir: Path, count: int = 60, seed: int = 29) -> list[Path]:
    """`count` images in `out_dir` (half TD3, half TD1; even-numbered clean, odd degraded)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    made = []
    for index in range(count):
        layout = "TD3" if index % 4 < 2 else "TD1"
        degraded = index % 2 == 1
        values = identity(rng, layout)
        lines = compose(layout, **values)
        name = f"{index:03d}-{layout.lower()}-{'degraded' if degraded else 'clean'}"
        if degraded:
            image = degrade(data_page(values, lines, layout, 24.0, rng), rng)
            buffer = io.BytesIO()
            image.save(buffer, "JPEG", quality=rng.randint(25, 70))
            path = out_dir / f"{name}.jpg"
        else:
            image = data_page(values, lines, layout, 12.0, rng)
            buffer = io.BytesIO()
            image.save(buffer, "PNG")
            path = out_dir / f"{name}.png"
        path.write_bytes(buffer.getvalue())
        path.with_suffix(".json").write_text(json.dumps(
            {"lines": lines, "degraded": degraded, "layout": layout}))
        made.append(path)
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    made = make_set(args.out_dir, args.count, args.seed)
    print(f"{len(made)} images in {args.out_dir}")


if __name__ == "__main__":
    main()

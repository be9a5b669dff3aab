"""Reads the machine-readable zone from a photo of a passport or identity card, on the appliance.

Image bytes in, a `mrz.Reading` (fields and every check digit's result) out; knows nothing of the
web. Tesseract out of the box reads OCR-B's fillers as K and loses the lines of ID cards, so this
reader uses what the zone guarantees instead: one fixed font (OCR-B), a fixed pitch, 2 or 3 lines
of 44, 36 or 30 characters, and check digits.

1. Find the zone: dark text near the page's bottom, joined into long, thin, equally long lines
   (black-hat and closing on a reduced copy).
2. Turn it straight (the lines' angle, up to a few degrees) and cut it out of a sharper copy.
3. Even out the light (divide by the paper's brightness around each point).
4. Split the lines by the horizontal profile of ink, the characters by the fixed pitch.
5. Match each cell against OCR-B glyphs rendered from Debian's fonts-ocr-b at first use (kept in
   memory), keeping the three best candidates, and let the check digits choose (mrz.read).

OpenCV and numpy come with the optional part `rentalcomply[scan]`; `available()` says whether it
is installed, and why not.
"""

from __future__ import annotations

import functools
import os

from rentalcomply.scan import images, mrz

# cv2, numpy and Pillow are imported inside the functions that use them: OpenCV and numpy are the
# optional part (absent from the one-file binary and from installs without the extra), and the
# server imports this module at start whether or not anyone scans.
OCR_B_PATHS = ("/usr/share/fonts/opentype/ocr-b/OCRB.otf",
               "/usr/share/fonts/truetype/ocr-b/OCRB.ttf")
PITCH = 24            # pixels a character cell is scaled to before matching
DETECT_WIDTH = 900    # the reduced copy the zone is looked for in
READ_MAX_SIDE = 2000  # the copy the zone is cut from (larger photos are reduced first)
CANDIDATES = 3
# Narrower than this, or longer than this many times its width, no photo holds a readable zone;
# and a sliver turned by a quarter would be scaled up to DETECT_WIDTH wide, hundreds of
# megapixels for a 12000×1 PNG.
MIN_SIDE = 32
MAX_ASPECT = 16
CLOSE = 0.12  # a candidate this close to the best match is a real doubt


class Unreadable(Exception):
    """No machine-readable zone found in the image (or it could not be cut into characters)."""


def ocr_b_font() -> str | None:
    for path in OCR_B_PATHS:
        if os.path.exists(path):
            return path
    return None


def available() -> tuple[bool, str]:
    """Whether scanning can run here, and if not, why (for doctor and the guest page)."""
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401
    except ImportError:
        return False, ("the optional part is not installed (pip install 'rentalcomply[scan]', "
                       "which brings OpenCV and numpy)")
    if ocr_b_font() is None:
        return False, "the OCR-B font is missing (apt-get install fonts-ocr-b)"
    return True, "on (OpenCV reader, OCR-B templates from " + ocr_b_font() + ")"


@functools.lru_cache(maxsize=1)
def _templates():
    """The 37 characters, each a float image PITCH wide, as tall as OCR-B's tallest glyph,
    slightly blurred (a photo never has sharp edges)."""
    import cv2
    import numpy as np
    from PIL import Image, ImageDraw, ImageFont
    scale = 4
    size = PITCH * scale / 0.723  # OCR-B's advance is 0.723 em
    font = ImageFont.truetype(ocr_b_font(), round(size))
    top, bottom = round(0.17 * size), round(0.96 * size)  # '0' reaches highest, the baseline
    glyphs = {}
    for char in mrz.ALPHABET:
        canvas = Image.new("L", (PITCH * scale, round(size * 1.2)), 0)
        ImageDraw.Draw(canvas).text((0, 0), char, font=font, fill=255)
        array = np.asarray(canvas, dtype=np.float32)[top:bottom] / 255.0
        small = cv2.resize(array, (PITCH, round((bottom - top) / scale)),
                           interpolation=cv2.INTER_AREA)
        glyphs[char] = cv2.GaussianBlur(small, (3, 3), 0.7)
    return glyphs


def read_image(data: bytes, today=None, limits: images.Limits = images.Limits()) -> mrz.Reading:
    """The zone in the image `data` (JPEG or PNG bytes). Raises Unreadable, also for a file
    whose header declares more than `limits` (checked before anything decodes).

    A phone held upright over a passport lying across gives the page turned by a quarter, and
    a photo may come upside down: when the zone is not found, or not read with every check
    passing, the other three quarter turns are tried, best reading kept."""
    import cv2
    import numpy as np
    # The decoder allocates what the header declares, whatever the file's length: sized first.
    try:
        images.accept(data, limits)
    except images.Refused as refused:
        raise Unreadable(refused.key) from None
    # The photo as it is meant to be seen: imdecode applies the EXIF orientation a phone sets.
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    except cv2.error:
        image = None
    if image is None:
        raise Unreadable("not an image this reader can open")
    if min(image.shape) < MIN_SIDE or max(image.shape) > MAX_ASPECT * min(image.shape):
        raise Unreadable("no machine-readable zone found")
    scale = min(1.0, READ_MAX_SIDE / max(image.shape))
    if scale < 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    best, problem = None, None
    for turn in (None, cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE, cv2.ROTATE_180):
        turned = image if turn is None else cv2.rotate(image, turn)
        try:
            reading = _read_turned(turned, today)
        except Unreadable as error:
            problem = problem or error
            continue
        except cv2.error:  # an odd shape that OpenCV asserts on is a zone not found, not a 500
            problem = problem or Unreadable("no machine-readable zone found")
            continue
        score = sum(reading.checks.values())
        if best is None or score > best[0]:
            best = (score, reading)
        if reading.valid:
            break
    if best is None:
        raise problem
    return best[1]


def _read_turned(image, today) -> mrz.Reading:
    lines, angle, box = _find_zone(image)
    band = _cut_out(image, lines, angle, box)
    best = None
    for count, length in _shapes(len(lines)):
        try:
            texts, candidates = _recognise(band, count, length)
        except Unreadable:
            continue
        reading = mrz.read(texts, candidates, today=today)
        score = sum(reading.checks.values())
        if best is None or score > best[0]:
            best = (score, reading)
        if reading.valid:
            break
    if best is None:
        raise Unreadable("the zone could not be cut into characters")
    return best[1]


def _find_zone(image):
    """The zone's lines on the reduced copy, scaled back: [(cx, cy, w, h)], the angle, and the
    rotated box around all of them."""
    import cv2
    import numpy as np
    factor = DETECT_WIDTH / image.shape[1]
    small = cv2.resize(image, (DETECT_WIDTH, round(image.shape[0] * factor)),
                       interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0)
    blackhat = cv2.morphologyEx(small, cv2.MORPH_BLACKHAT,
                                cv2.getStructuringElement(cv2.MORPH_RECT, (15, 9)))
    gradient = np.abs(cv2.Sobel(blackhat, cv2.CV_32F, 1, 0, ksize=-1))
    gradient = cv2.normalize(gradient, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
    joined = cv2.morphologyEx(gradient, cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_RECT, (17, 3)))
    _, mask = cv2.threshold(joined, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_RECT, (9, 2)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    candidates = []
    for points in _join_pieces(contours):
        (cx, cy), (w, h), angle = cv2.minAreaRect(points)
        if w < h:  # the long side's direction, between -90 and 90 degrees
            w, h, angle = h, w, angle + 90
        angle = (angle + 90) % 180 - 90
        if w > 0.25 * DETECT_WIDTH and h > 2 and w / h > 10 and abs(angle) < 8:
            candidates.append((cx, cy, w, h, angle))
    group = _zone_lines(candidates)
    if not group:
        raise Unreadable("no machine-readable zone found")
    angle = float(np.median([line[4] for line in group]))
    lines = [(cx / factor, cy / factor, w / factor, h / factor) for cx, cy, w, h, _ in group]
    points = np.array([p for cx, cy, w, h, a in group
                       for p in cv2.boxPoints(((cx, cy), (w, h), a))], np.float32) / factor
    return lines, angle, points


def _join_pieces(contours):
    """Pieces of one text line joined: a narrow letter beside a filler can leave a gap that the
    closing did not bridge. Pieces join when they share their rows and lie within a few line
    heights of each other."""
    import cv2
    import numpy as np
    pieces = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        if w > 1.5 * h and h > 2:
            pieces.append([x, y, x + w, y + h, contour.reshape(-1, 2)])
    pieces.sort(key=lambda p: p[0])
    joined = []
    for piece in pieces:
        for line in joined:
            height = min(piece[3] - piece[1], line[3] - line[1])
            overlap = min(piece[3], line[3]) - max(piece[1], line[1])
            # Side by side, not one above the other: two lines of a turned zone share rows too.
            beside = min(piece[2], line[2]) - max(piece[0], line[0]) < 0.2 * min(
                piece[2] - piece[0], line[2] - line[0])
            if overlap > 0.6 * height and beside and piece[0] - line[2] < 3 * height:
                line[0], line[1] = min(line[0], piece[0]), min(line[1], piece[1])
                line[2], line[3] = max(line[2], piece[2]), max(line[3], piece[3])
                line[4] = np.vstack([line[4], piece[4]])
                break
        else:
            joined.append(piece)
    return [line[4] for line in joined]


def _zone_lines(candidates):
    """The 2 or 3 lines of the zone: about as long as one another, one under the other at an even
    spacing; the lowest such group wins (the zone is at the bottom of the page)."""
    candidates = sorted(candidates, key=lambda c: c[1])
    best = None
    for i, first in enumerate(candidates):
        group = [first]
        for other in candidates[i + 1:]:
            last = group[-1]
            gap = other[1] - last[1]
            if (abs(other[2] - first[2]) < 0.2 * first[2] and abs(other[0] - first[0])
                    < 0.15 * first[2] and 0.5 * first[3] < gap < 4.5 * max(first[3], other[3])):
                group.append(other)
            if len(group) == 3:
                break
        if len(group) >= 2 and (best is None or len(group) > len(best)
                                or (len(group) == len(best) and first[1] > best[0][1])):
            best = group
    return best


def _cut_out(image, lines, angle, points):
    """The zone turned straight and cut out of `image` with a margin, its light evened out, as
    ink strength 0..1 (float)."""
    import cv2
    import numpy as np
    centre = points.mean(axis=0)
    rotation = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle, 1.0)
    turned = cv2.transform(points[None], rotation)[0]
    line_height = float(np.median([h for _, _, _, h in lines]))
    x0, y0 = turned.min(axis=0) - [line_height * 1.2, line_height * 0.8]
    x1, y1 = turned.max(axis=0) + [line_height * 1.2, line_height * 0.8]
    rotation[:, 2] -= [x0, y0]
    width, height = int(x1 - x0), int(y1 - y0)
    band = cv2.warpAffine(image, rotation, (width, height), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    # The paper's brightness around each point: ink removed by a closing wider than a stroke.
    kernel = max(3, int(line_height * 0.9) | 1)
    paper = cv2.morphologyEx(band, cv2.MORPH_CLOSE,
                             cv2.getStructuringElement(cv2.MORPH_RECT, (kernel, kernel)))
    paper = cv2.GaussianBlur(paper, (0, 0), kernel / 2)
    ink = 1.0 - np.clip(band / np.maximum(paper, 1.0), 0.0, 1.0)
    top = np.percentile(ink, 99.5)
    return np.clip(ink / max(top, 1e-3), 0.0, 1.0)


def _shapes(found_lines: int):
    """The layouts worth trying, most likely first."""
    if found_lines >= 3:
        return [(3, 30), (2, 44), (2, 36)]
    return [(2, 44), (2, 36), (3, 30)]


def _line_rows(ink, count: int):
    """The rows (top, bottom) of `count` text lines, from the horizontal profile of ink."""
    import numpy as np
    strong = (ink > 0.45).astype(np.float32)
    profile = strong.sum(axis=1)
    profile = np.convolve(profile, np.ones(3) / 3, mode="same")
    threshold = 0.2 * profile.max()
    runs, start = [], None
    for row, value in enumerate(profile):
        if value > threshold and start is None:
            start = row
        elif value <= threshold and start is not None:
            runs.append((start, row))
            start = None
    if start is not None:
        runs.append((start, len(profile)))
    if len(runs) < count:
        raise Unreadable("fewer text lines than the layout has")
    # The `count` runs holding the most ink, in order from the top.
    heaviest = sorted(sorted(runs, key=lambda r: -profile[r[0]:r[1]].sum())[:count])
    return heaviest


def _recognise(ink, count: int, length: int):
    import cv2
    import numpy as np
    glyphs = _templates()
    glyph_height = next(iter(glyphs.values())).shape[0]
    texts, candidates = [], []
    for top, bottom in _line_rows(ink, count):
        line = ink[top:bottom]
        columns = np.nonzero((line > 0.45).sum(axis=0) >= 2)[0]
        if len(columns) < length:
            raise Unreadable("a line too short for the layout")
        left, right = columns[0], columns[-1]
        # OCR-B's ink spans from 0.15 to 0.83 of a cell: first cell's left to last cell's right.
        pitch = (right - left) / (length - 1 + 0.68)
        if pitch < 4:
            raise Unreadable("characters too small")
        ink_height = bottom - top
        if not 0.6 * pitch < ink_height < 1.6 * pitch:
            raise Unreadable("lines and characters do not agree")
        fx, fy = PITCH / pitch, glyph_height / ink_height
        margin = 4
        line_top = max(0, int(top - ink_height * 0.25))
        patch = ink[line_top:int(bottom + ink_height * 0.25) + 1]
        scaled = cv2.resize(patch, None, fx=fx, fy=fy, interpolation=cv2.INTER_AREA)
        scaled = cv2.copyMakeBorder(scaled, margin, margin, margin * 2, margin * 2,
                                    cv2.BORDER_CONSTANT, value=0)
        origin = (left - 0.15 * pitch) * fx + margin * 2
        text, alternatives = [], []
        for index in range(length):
            x = int(round(origin + index * PITCH))
            window = scaled[:, max(0, x - margin):x + PITCH + margin]
            if window.shape[1] < PITCH or window.shape[0] < glyph_height:
                raise Unreadable("a cell outside the zone")
            scores = sorted(((float(cv2.matchTemplate(window, glyph, cv2.TM_CCOEFF_NORMED).max()),
                              char) for char, glyph in glyphs.items()), reverse=True)
            text.append(scores[0][1])
            # Only close seconds: a clear character offered to the check digits as "maybe"
            # would let them make a misread number agree with itself.
            alternatives.append("".join(char for score, char in scores[1:CANDIDATES]
                                        if score > scores[0][0] - CLOSE))
        texts.append("".join(text))
        candidates.append(alternatives)
    return texts, candidates

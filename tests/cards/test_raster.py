"""Raster images (cardgen.cards.raster): decoding, colour management, placement, resolution, sharing."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pikepdf
import pytest
from PIL import Image, ImageCms

import imagemaker as make
from cardgen.errors import RenderError
from cardgen.content import images
from cardgen.cards import raster
from cardgen.content.images import read_raster
from cardgen.cards.raster import Placement, draw_raster, effective_ppi, prepared, visible


@pytest.fixture
def folder(tmp_path) -> Path:
    return tmp_path


def write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


# --- decoding -----------------------------------------------------------------------------------------

def test_png_8_bit_rgb_is_read_exactly(folder):
    image = make.picture(40, 30, seed=1)
    found = read_raster(write(folder, "a.png", make.encoded(image, "PNG")))
    assert (found.format, found.mode, found.width, found.height, found.alpha) == ("PNG", "RGB", 40, 30, None)
    assert np.array_equal(np.asarray(found.pixels), np.asarray(image))


def test_png_16_bit_rgb_keeps_the_top_8_bits(folder):
    values = (np.random.RandomState(3).rand(6, 9, 3) * 65535).astype(np.uint16)
    found = read_raster(write(folder, "deep.png", make.png16(values)))
    assert found.mode == "RGB"
    assert np.array_equal(np.asarray(found.pixels), (values >> 8).astype(np.uint8))


def test_png_16_bit_grey_is_scaled_not_clipped(folder):
    values = np.array([[0, 256, 32768, 65535]], dtype=np.uint16)
    found = read_raster(write(folder, "grey16.png", make.encoded(Image.fromarray(values), "PNG")))
    assert found.mode == "L"
    assert list(np.asarray(found.pixels)[0]) == [0, 1, 128, 255]


def test_palette_png_with_transparency_keeps_its_alpha(folder):
    image = Image.new("P", (4, 2))
    image.putpalette([255, 0, 0, 0, 0, 255] + [0] * 762)
    image.putdata([0, 1, 0, 1, 1, 0, 1, 0])
    found = read_raster(write(folder, "pal.png", make.encoded(image, "PNG", transparency=1)))
    assert found.mode == "RGB"
    assert np.asarray(found.pixels)[0, 0].tolist() == [255, 0, 0]
    assert np.asarray(found.alpha)[0].tolist() == [255, 0, 255, 0]


def test_an_alpha_channel_that_hides_nothing_is_dropped(folder):
    image = make.picture(8, 8).convert("RGBA")
    assert read_raster(write(folder, "opaque.png", make.encoded(image, "PNG"))).alpha is None
    image.putpixel((0, 0), (1, 2, 3, 10))
    assert read_raster(write(folder, "holed.png", make.encoded(image, "PNG"))).alpha is not None


@pytest.mark.parametrize("mode", ["RGB", "L"])
def test_jpeg_rgb_and_greyscale(folder, mode):
    image = make.picture(64, 48, seed=2, mode=mode)
    found = read_raster(write(folder, f"p-{mode}.jpg", make.encoded(image, "JPEG", quality=95)))
    assert (found.format, found.mode) == ("JPEG", mode)
    assert np.abs(np.asarray(found.pixels, dtype=int) - np.asarray(image, dtype=int)).mean() < 3


def test_adobe_cmyk_jpeg_is_read_uninverted(folder):
    image = make.picture(64, 48, seed=3, mode="CMYK")
    data = make.encoded(image, "JPEG", quality=95)
    assert b"Adobe" in data[:200]  # Pillow writes Adobe's APP14 marker: inverted CMYK samples
    found = read_raster(write(folder, "cmyk.jpg", data))
    assert found.mode == "CMYK"
    # read as ink amounts, as written (inverted data read without the marker would be ~255 off)
    assert np.abs(np.asarray(found.pixels, dtype=int) - np.asarray(image, dtype=int)).mean() < 3


@pytest.mark.parametrize("compression", ["raw", "tiff_lzw", "tiff_adobe_deflate"])
@pytest.mark.parametrize("mode", ["RGB", "CMYK"])
def test_tiff_compressions_rgb_and_cmyk(folder, compression, mode):
    image = make.picture(30, 20, seed=4, mode=mode)
    found = read_raster(write(folder, f"t-{mode}-{compression}.tif", make.encoded(image, "TIFF", compression=compression)))
    assert (found.format, found.mode) == ("TIFF", mode)
    assert np.array_equal(np.asarray(found.pixels), np.asarray(image))


@pytest.mark.parametrize("channels", [3, 4])
@pytest.mark.parametrize("deflate", [False, True])
def test_tiff_16_bit_rgb_and_cmyk(folder, channels, deflate):
    values = (np.random.RandomState(channels).rand(5, 7, channels) * 65535).astype(np.uint16)
    found = read_raster(write(folder, f"t16-{channels}-{deflate}.tiff", make.tiff16(values, deflate)))
    assert found.mode == ("RGB" if channels == 3 else "CMYK")
    assert np.array_equal(np.asarray(found.pixels), (values >> 8).astype(np.uint8))


def test_webp_lossless_with_alpha(folder):
    image = make.picture(20, 10, seed=5).convert("RGBA")
    image.putalpha(Image.linear_gradient("L").resize((20, 10)))
    found = read_raster(write(folder, "w.webp", make.encoded(image, "WEBP", lossless=True)))
    assert (found.format, found.mode) == ("WEBP", "RGB")
    assert np.array_equal(np.asarray(found.alpha), np.asarray(image.getchannel("A")))


def test_decoded_once_per_file_contents(folder):
    data = make.encoded(make.picture(10, 10, seed=6), "PNG")
    first = read_raster(write(folder, "one.png", data))
    assert read_raster(folder / "one.png") is first
    assert read_raster(write(folder, "same-bytes-other-name.png", data)) is first  # keyed by the bytes' digest
    changed = read_raster(write(folder, "one.png", make.encoded(make.picture(10, 10, seed=7), "PNG")))
    assert changed is not first and changed.digest != first.digest


def test_a_png_named_jpg_is_read_as_png_and_says_so(folder):
    found = read_raster(write(folder, "misnamed.jpg", make.encoded(make.picture(8, 8), "PNG")))
    assert found.format == "PNG" and found.misnamed() == "PNG"
    assert read_raster(write(folder, "fine.jpeg", make.encoded(make.picture(8, 8), "JPEG"))).misnamed() is None


# --- colour ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("profile, colorants, gamma", [
    (make.adobe_rgb, make.ADOBE_RGB, 563 / 256),
    (make.display_p3, make.DISPLAY_P3, None),
])
def test_an_embedded_rgb_profile_is_honoured_for_rgb_outputs(folder, profile, colorants, gamma):
    colours = [(40, 160, 90), (200, 100, 50), (128, 128, 128), (10, 20, 240)]
    image = Image.new("RGB", (len(colours), 1))
    image.putdata(colours)
    found = read_raster(write(folder, "wide.png", make.encoded(image, "PNG", icc_profile=profile())))
    assert found.profile.endswith("(cardgen tests)")
    out = np.asarray(raster.to_srgb(found, found.pixels), dtype=float)[0]
    expected = np.array([make.expected_srgb(c, colorants, gamma) for c in colours])
    assert np.abs(out - expected).max() <= 2.0, (out, expected)
    assert np.abs(out - np.array(colours)).max() > 10  # the profile made a difference


def test_untagged_and_srgb_tagged_rgb_pass_unchanged_to_rgb_outputs(folder):
    image = make.picture(16, 16, seed=8)
    for name, options in (("plain.png", {}), ("tagged.png", {"icc_profile": make.srgb()})):
        found = read_raster(write(folder, name, make.encoded(image, "PNG", **options)))
        assert np.array_equal(np.asarray(raster.to_srgb(found, found.pixels)), np.asarray(image))


def test_cmyk_in_the_printers_condition_passes_through_unchanged(folder):
    image = make.picture(24, 16, seed=9, mode="CMYK")
    for name, options in (("untagged.tif", {}), ("fogra.tif", {"icc_profile": make.FOGRA39.read_bytes()})):
        found = read_raster(write(folder, name, make.encoded(image, "TIFF", **options)))
        out = raster.to_cmyk(found, found.pixels, make.FOGRA39, 300)
        assert np.array_equal(np.asarray(out), np.asarray(image)), name


def test_cmyk_of_another_condition_is_converted_and_held_to_the_ink_limit(folder):
    image = Image.new("CMYK", (2, 1))
    image.putdata([(255, 255, 255, 255), (40, 30, 20, 0)])
    found = read_raster(write(folder, "other.tif", make.encoded(image, "TIFF", icc_profile=make.FOGRA39.read_bytes())))
    out = np.asarray(raster.to_cmyk(found, found.pixels, make.FOGRA39_240, 240), dtype=int)
    assert out[0, 0].sum() <= 240 * 255 / 100 + 1  # 400 % ink brought within 240 %
    assert not np.array_equal(out, np.asarray(image))


def test_rgb_images_go_to_the_printers_cmyk_within_its_ink_limit(folder):
    image = make.picture(32, 32, seed=10)
    image.putpixel((0, 0), (0, 0, 0))
    found = read_raster(write(folder, "rgb.png", make.encoded(image, "PNG", icc_profile=make.adobe_rgb())))
    for profile, tac in ((make.FOGRA39, 300), (make.FOGRA39_240, 240)):
        out = raster.to_cmyk(found, found.pixels, profile, tac)
        assert out.mode == "CMYK"
        totals = np.asarray(out, dtype=int).sum(axis=2)
        assert totals.max() <= tac * 255 / 100 + 1
        assert totals[0, 0] > 2 * 255 and np.asarray(out)[0, 0, :3].all()  # black is a rich black


def test_an_adobe_rgb_image_is_converted_from_its_own_profile_to_cmyk(folder):
    image = Image.new("RGB", (1, 1), (40, 160, 90))
    tagged = read_raster(write(folder, "a.png", make.encoded(image, "PNG", icc_profile=make.adobe_rgb())))
    plain = read_raster(write(folder, "b.png", make.encoded(image, "PNG")))
    assert raster.to_cmyk(tagged, tagged.pixels, make.FOGRA39, 300).getpixel((0, 0)) != \
        raster.to_cmyk(plain, plain.pixels, make.FOGRA39, 300).getpixel((0, 0))


def test_greyscale_prints_on_the_black_plate_alone(folder):
    found = read_raster(write(folder, "g.png", make.encoded(make.picture(8, 8, mode="L"), "PNG")))
    out = np.asarray(raster.to_cmyk(found, found.pixels, make.FOGRA39, 300))
    assert not out[..., :3].any()
    assert np.array_equal(out[..., 3], 255 - np.asarray(found.pixels))


def test_a_profile_for_another_colour_space_is_an_error(folder):
    path = write(folder, "wrong.png", make.encoded(make.picture(4, 4), "PNG", icc_profile=make.FOGRA39.read_bytes()))
    with pytest.raises(RenderError, match="profile .* is for CMYK images, but the image is RGB"):
        read_raster(path)


# --- placement and resolution -----------------------------------------------------------------------

def test_cover_shows_the_middle_or_the_aligned_or_focused_part():
    # a 200 x 100 picture in a square box: a 100 x 100 window
    assert visible(200, 100, 10, 10, Placement("cover"))[0] == (50, 0, 150, 100)
    assert visible(200, 100, 10, 10, Placement("cover", anchor=(0.0, 0.5)))[0] == (0, 0, 100, 100)
    assert visible(200, 100, 10, 10, Placement("cover", anchor=(1.0, 0.5)))[0] == (100, 0, 200, 100)
    assert visible(200, 100, 10, 10, Placement("cover", focus=(0.3, 0.5)))[0] == (10, 0, 110, 100)
    assert visible(200, 100, 10, 10, Placement("cover", focus=(0.95, 0.5)))[0] == (100, 0, 200, 100)  # clamped


def test_contain_and_stretch_place_the_whole_picture():
    window, rect = visible(200, 100, 10, 10, Placement("contain", anchor=(0.5, 0.0)))
    assert window == (0, 0, 200, 100) and rect == (0.0, 5.0, 10.0, 5.0)  # at the top (y from the bottom)
    assert visible(200, 100, 10, 10, Placement("stretch"))[1] == (0.0, 0.0, 10, 10)


def test_crop_and_quarter_turns_change_what_is_placed():
    window, _ = visible(200, 100, 10, 20, Placement("cover", crop=(0, 0, 50, 100)))
    assert window == (0, 0, 50, 100)
    _, rect = visible(200, 100, 20, 20, Placement("contain", rotate=90))
    assert rect == (5.0, 0.0, 10.0, 20.0)


def test_effective_ppi_of_a_placed_picture():
    ppi, w, h = effective_ppi(600, 400, 50.8, 50.8, Placement("cover"))  # 400 px over 2 in
    assert (round(ppi), round(w, 1), round(h, 1)) == (200, 50.8, 50.8)
    ppi, w, h = effective_ppi(600, 400, 50.8, 50.8, Placement("contain"))  # 600 px over 2 in
    assert (round(ppi), round(h, 2)) == (300, 33.87)


def test_images_far_above_the_output_resolution_are_resampled(folder):
    found = read_raster(write(folder, "huge.png", make.encoded(make.picture(2400, 1200), "PNG")))
    box = 72.0  # one inch square
    pixels, _, _, _ = prepared(found, box, box, Placement("cover"), ("rgb",), 300)
    assert pixels.size == (300, 300)
    fine = read_raster(write(folder, "fine.png", make.encoded(make.picture(400, 400), "PNG")))
    pixels, _, _, _ = prepared(fine, box, box, Placement("cover"), ("rgb",), 300)
    assert pixels.size == (400, 400)  # 1.33 x the resolution: placed as it is


def test_ink_modes_repaint_images(folder):
    found = read_raster(write(folder, "ink.png", make.encoded(make.picture(20, 20, seed=11), "PNG")))
    grey, _, _, _ = prepared(found, 72, 72, Placement(), ("ink", "greyscale"), 300)
    assert grey.mode == "L"
    faded, _, _, _ = prepared(found, 72, 72, Placement(), ("ink", "ink-saver"), 300, area_mm2=1000)
    assert np.asarray(faded).mean() > np.asarray(found.pixels).mean() + 60  # much paler
    assert np.asarray(faded).min() >= 255 * 0.75  # a large area keeps 20 % of its ink


# --- in a PDF ------------------------------------------------------------------------------------------

_OPEN: list = []  # the PDFs read, kept open while their objects are looked at


def _images(data: bytes) -> list:
    pdf = pikepdf.open(io.BytesIO(data))
    _OPEN.append(pdf)
    return [obj for obj in pdf.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"
            and not obj.get("/ImageMask")]


def test_one_image_object_however_often_it_is_drawn(folder):
    from cardgen.cards.pdf import finish, new_canvas

    path = write(folder, "back.png", make.encoded(make.picture(90, 120, seed=12), "PNG"))
    canvas = new_canvas((600, 800), "t")
    for page in range(3):
        for k in range(5):
            draw_raster(canvas, path, 10 + k * 100, 10, 90, 120, "cover")
        canvas.showPage()
    assert len(_images(finish(canvas))) == 1


def test_cmyk_pixels_reach_the_cmyk_pdf_unchanged(folder):
    from cardgen.color.cmyk import cmyk_canvas_class
    from cardgen.cards.pdf import finish, new_canvas

    image = make.picture(60, 40, seed=13, mode="CMYK")
    path = write(folder, "art.jpg", make.encoded(image, "JPEG", quality=90, icc_profile=make.FOGRA39.read_bytes()))
    decoded = np.asarray(read_raster(path).pixels)
    canvas = new_canvas((400, 400), "t", canvas_cls=cmyk_canvas_class(300, 0.25))
    draw_raster(canvas, path, 0, 0, 60, 40, "stretch")  # 60 px over 60 pt: 72 ppi, kept as it is
    (found,) = _images(finish(canvas))
    assert str(found.ColorSpace) == "/DeviceCMYK" and "/Decode" not in found
    stored = np.frombuffer(found.read_bytes(), dtype=np.uint8).reshape(40, 60, 4)
    assert np.array_equal(stored, decoded)


def test_rgb_images_are_cmyk_in_a_cmyk_pdf_with_their_alpha(folder):
    from cardgen.color.cmyk import cmyk_canvas_class
    from cardgen.cards.pdf import finish, new_canvas

    image = make.picture(30, 30, seed=14).convert("RGBA")
    image.putpixel((0, 0), (0, 0, 0, 0))
    path = write(folder, "cut.png", make.encoded(image, "PNG"))
    canvas = new_canvas((400, 400), "t", canvas_cls=cmyk_canvas_class(300, 0.25))
    draw_raster(canvas, path, 0, 0, 30, 30)
    (found,) = [i for i in _images(finish(canvas)) if str(i.get("/ColorSpace")) != "/DeviceGray"]
    assert str(found.ColorSpace) == "/DeviceCMYK" and "/SMask" in found


def test_a_damaged_image_is_an_error_naming_the_file(folder):
    data = make.encoded(make.picture(50, 50), "PNG")
    path = write(folder, "cut-short.png", data[: len(data) // 2])
    with pytest.raises(RenderError, match="cut-short.png': cannot decode the image"):
        read_raster(path)


def test_a_truncated_image_is_refused_even_after_weasyprint_was_imported(folder):
    import weasyprint  # noqa: F401  (it makes Pillow load truncated images for the whole process)
    from PIL import ImageFile

    assert ImageFile.LOAD_TRUNCATED_IMAGES
    data = make.encoded(make.picture(64, 48, seed=20), "PNG")
    with pytest.raises(RenderError, match="truncated"):
        read_raster(write(folder, "half.png", data[: len(data) // 2]))
    assert ImageFile.LOAD_TRUNCATED_IMAGES  # left as WeasyPrint wants it


def _page_pixels(data: bytes):
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(data)[0]
    return np.asarray(page.render(scale=2).to_pil().convert("RGB"), dtype=int)


@pytest.mark.parametrize("mode", ["RGB", "CMYK"])
def test_jpeg_art_is_stored_as_a_jpeg_and_looks_as_the_lossless_copy(folder, monkeypatch, mode):
    from cardgen.color.cmyk import cmyk_canvas_class
    from cardgen.cards.pdf import finish, new_canvas

    image = make.picture(200, 150, seed=21, mode=mode)
    if mode == "CMYK":  # more ink than a 240 % printer takes: converted, never placed as decoded
        c, m, y, _ = image.split()
        image = Image.merge("CMYK", (c, m, y, Image.new("L", image.size, 200)))
    path = write(folder, f"photo-{mode}.jpg", make.encoded(image, "JPEG", quality=95, **(
        {"icc_profile": make.FOGRA39.read_bytes()} if mode == "CMYK" else {})))
    pages = {}
    for lossy in (True, False):
        if not lossy:
            monkeypatch.setattr(images.Raster, "format", property(lambda self: "PNG"), raising=False)
            raster._PREPARED.clear()
        canvas = new_canvas((200, 150), "t", canvas_cls=cmyk_canvas_class(240, 0.25))
        draw_raster(canvas, path, 0, 0, 200, 150, "stretch")
        data = finish(canvas)
        (found,) = _images(data)
        assert ("/DCTDecode" in str(found.Filter)) == lossy
        pages[lossy] = _page_pixels(data)
    # the same picture (not inverted, not shifted): JPEG's losses only
    assert np.abs(pages[True] - pages[False]).mean() < 4


def test_a_lossless_image_renders_as_its_pixels_with_its_alpha(folder):
    from cardgen.cards.pdf import finish, new_canvas

    image = make.picture(100, 75, seed=22).convert("RGBA")
    alpha = Image.new("L", (100, 75), 255)
    alpha.paste(0, (0, 0, 50, 75))  # the left half transparent
    image.putalpha(alpha)
    path = write(folder, "half.png", make.encoded(image, "PNG"))
    canvas = new_canvas((100, 75), "t")
    canvas.setFillColorRGB(0, 0, 1)
    canvas.rect(0, 0, 100, 75, stroke=0, fill=1)
    draw_raster(canvas, path, 0, 0, 100, 75, "stretch")
    data = finish(canvas)
    (found,) = [i for i in _images(data) if str(i.ColorSpace) == "/DeviceRGB"]
    assert "/Predictor" in str(found.DecodeParms) and "/SMask" in found
    shown = _page_pixels(data)[:, :, :][::2, ::2]  # rendered at 2x
    expected = np.asarray(image.convert("RGB"), dtype=int)
    assert np.abs(shown[:, 55:] - expected[:, 55:]).mean() < 3  # the opaque half: the picture
    assert (np.abs(shown[:, :45] - [0, 0, 255]).mean()) < 3  # the transparent half: what lies under it


def test_alpha_in_pdfx_1a_becomes_a_hard_mask(folder):
    from cardgen.color.cmyk import cmyk_canvas_class
    from cardgen.cards.pdf import finish, new_canvas
    from cardgen.printing.pdfx import make_pdfx

    image = make.picture(100, 75, seed=23).convert("RGBA")
    alpha = Image.new("L", (100, 75), 255)
    alpha.paste(0, (0, 0, 50, 75))
    alpha.paste(100, (50, 0, 60, 75))  # less than half opaque: cut out too
    image.putalpha(alpha)
    path = write(folder, "x1a.png", make.encoded(image, "PNG"))
    canvas = new_canvas((100, 75), "t", canvas_cls=cmyk_canvas_class(240, 0.25))
    canvas.setTrimBox((0, 0, 100, 75))
    canvas.setBleedBox((0, 0, 100, 75))
    canvas.setFillColorRGB(0, 0, 1)
    canvas.rect(0, 0, 100, 75, stroke=0, fill=1)
    draw_raster(canvas, path, 0, 0, 100, 75, "stretch")
    data = make_pdfx(finish(canvas), "x-1a", make.FOGRA39_240, "FOGRA39")
    (found,) = [i for i in _images(data) if str(i.get("/ColorSpace")) == "/DeviceCMYK"]
    assert "/SMask" not in found and bool(found.Mask.ImageMask)
    shown = _page_pixels(data)[::2, ::2]
    under = shown[:, 5:45].mean(axis=(0, 1))
    assert under[2] > 150 and under[0] < 100  # blue shows where the image is transparent
    assert np.abs(shown[:, 52:58].mean(axis=(0, 1)) - under).max() < 20  # 100 of 255 opaque: cut out
    assert np.abs(shown[:, 65:].mean(axis=(0, 1)) - under).max() > 40  # the opaque part is the picture


@pytest.mark.parametrize("mode", ["greyscale", "ink-saver"])
def test_print_and_play_ink_modes_repaint_placed_images(folder, mode):
    from cardgen.cards.pdf import finish, new_canvas

    image = make.picture(150, 150, seed=24)
    path = write(folder, f"ink-{mode}.png", make.encoded(image, "PNG"))
    canvas = new_canvas((150, 150), "t", ink=mode)
    draw_raster(canvas, path, 0, 0, 150, 150, "stretch")  # 53 x 53 mm: a large area
    data = finish(canvas)
    (found,) = _images(data)
    shown = _page_pixels(data)[::2, ::2]
    original = np.asarray(image, dtype=int)
    if mode == "greyscale":
        assert str(found.ColorSpace) == "/DeviceGray"
        assert np.abs(shown - np.asarray(image.convert("L"), dtype=int)[..., None]).mean() < 3
    else:
        assert str(found.ColorSpace) == "/DeviceRGB"
        assert np.abs(shown - (255 - (255 - original) * 0.2)).mean() < 3  # 20 % of the ink kept


def test_that_a_file_decodes_is_remembered_between_runs(folder, monkeypatch):
    path = write(folder, "remembered.png", make.encoded(make.picture(30, 20, seed=25), "PNG"))
    first = images.verify(path)
    # a new process: nothing decoded in memory, the on-disk cache (cardgen.content.memo) still there
    monkeypatch.setattr(images, "_RASTERS", type(images._RASTERS)())
    monkeypatch.setattr(images, "_PROBES", type(images._PROBES)())

    def no_decoding(*args):
        raise AssertionError("decoded again")

    monkeypatch.setattr(images, "_decode", no_decoding)
    assert images.verify(path) == first and (first.width, first.height, first.format) == (30, 20, "PNG")
    write(folder, "remembered.png", make.encoded(make.picture(30, 20, seed=26), "PNG"))
    with pytest.raises(AssertionError, match="decoded again"):  # other bytes: decoded
        images.verify(path)


def test_decoded_images_are_kept_within_a_memory_budget(folder, monkeypatch):
    monkeypatch.setattr(images, "DECODED_BUDGET", 3 * 100 * 100 * 3)
    monkeypatch.setattr(images, "_RASTERS", type(images._RASTERS)())
    for seed in range(6):
        read_raster(write(folder, f"b{seed}.png", make.encoded(make.picture(100, 100, seed=seed), "PNG")))
    assert len(images._RASTERS) == 3


def test_cmyk_over_the_printers_ink_limit_is_converted_into_it(folder):
    image = Image.new("CMYK", (2, 1))
    image.putdata([(230, 220, 210, 200), (40, 30, 20, 0)])  # 337 % and 35 %
    found = read_raster(write(folder, "heavy.tif", make.encoded(image, "TIFF")))  # untagged: FOGRA39
    assert raster.passes_through(found, found.pixels, make.FOGRA39, 340)
    assert not raster.passes_through(found, found.pixels, make.FOGRA39, 300)
    out = np.asarray(raster.to_cmyk(found, found.pixels, make.FOGRA39, 300), dtype=int)
    assert out[0, 0].sum() <= 300 * 255 / 100 + 1
    # the light colour looks the same (the profile may separate it with other inks)
    to_rgb = ImageCms.buildTransform(ImageCms.getOpenProfile(str(make.FOGRA39)), ImageCms.createProfile("sRGB"),
                                     "CMYK", "RGB")
    seen = ImageCms.applyTransform(Image.fromarray(out.astype(np.uint8), "CMYK"), to_rgb)
    meant = ImageCms.applyTransform(image, to_rgb)
    assert np.abs(np.asarray(seen, dtype=int)[0, 1] - np.asarray(meant, dtype=int)[0, 1]).max() <= 4


def test_a_profile_naming_fogra39_is_the_printers_condition(folder):
    from PIL import ImageCms

    named = make.FOGRA39_240.read_bytes()  # "cardgen FOGRA39 coated, TAC 240%": FOGRA39, not the 300 % file
    assert "FOGRA39" in ImageCms.getProfileDescription(ImageCms.ImageCmsProfile(io.BytesIO(named)))
    image = make.picture(10, 10, seed=27, mode="CMYK")
    found = read_raster(write(folder, "fogra.tif", make.encoded(image, "TIFF", icc_profile=named)))
    assert not raster.same_profile(found.icc, make.FOGRA39)
    assert raster.same_condition(found.icc, make.FOGRA39)
    assert np.array_equal(np.asarray(raster.to_cmyk(found, found.pixels, make.FOGRA39, 300)), np.asarray(image))

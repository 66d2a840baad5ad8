"""Colour: the ink a file is drawn in and the conversions behind it.

* :mod:`cardgen.color.ink` -- ink modes (full colour, ink saver, greyscale), how a colour of the
  layout is drawn in each, and the CMYK black rules;
* :mod:`cardgen.color.vision` -- colour-vision deficiency simulation (Machado 2009), CIEDE2000 and
  WCAG contrast, for the accessibility checks;
* :mod:`cardgen.color.cmyk` -- sRGB to CMYK through the bundled ICC print profiles (``icc/``), for
  print-shop files and CMYK art.

Used by the card drawing (:mod:`cardgen.cards`) and the print files (:mod:`cardgen.printing`).
"""

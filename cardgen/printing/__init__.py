"""Print files made from drawn cards (:mod:`cardgen.cards`).

* :mod:`cardgen.printing.pnp` -- print-and-play sheets: A4 and Letter, cut marks, duplex or folded backs;
* :mod:`cardgen.printing.shop` -- print-shop files: one card per page with bleed and boxes, one PNG per card;
* :mod:`cardgen.printing.pdfx` -- PDF/X-1a and PDF/X-4 finishing (output intent, keys, XMP);
* :mod:`cardgen.printing.printers` -- what each print shop asks for, as records read from ``printers.yaml``;
* :mod:`cardgen.printing.preflight` -- checking a PDF against a printer's record, as a prepress department would.

The build's producer that names and writes these files is :mod:`cardgen.build.cards`.
"""

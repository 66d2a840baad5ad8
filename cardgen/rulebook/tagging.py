"""Rulebooks as tagged PDF (PDF/UA-1): what WeasyPrint's own tagging leaves to us.

WeasyPrint writes a structure tree from the HTML (headings, paragraphs, lists, tables, figures
with their ``alt``), the document's language and title, and XMP metadata when asked for
``pdf_variant="pdf/ua-1"``.  The running heads and page numbers (CSS margin boxes) it marks as
content of structure elements that hang nowhere in the tree; PDF/UA wants page furniture marked
as artifacts.  :func:`running_heads_as_artifacts` does that while one document is written: the
text of every margin box goes into the page as ``/Artifact`` marked content and stays out of the
tree.  It patches two functions of WeasyPrint for the time of the call and only when they are
there as this module knows them (WeasyPrint 62 to 70); otherwise the PDF is written as WeasyPrint
makes it.
"""

from __future__ import annotations

import contextlib

#: What :func:`cardgen.rulebook.book.render_rulebook` asks WeasyPrint for.
PDF_VARIANT = "pdf/ua-1"


def _margin_boxes(document):
    from weasyprint.formatting_structure import boxes

    for page in document.pages:
        for child in page._page_box.children:
            if isinstance(child, boxes.MarginBox):
                yield child


def _descendants(box):
    yield box
    for child in getattr(box, "children", ()) or ():
        yield from _descendants(child)


@contextlib.contextmanager
def running_heads_as_artifacts(document):
    """While ``document.write_pdf`` runs: its margin boxes' content becomes artifacts."""
    try:
        from weasyprint.formatting_structure import boxes
        from weasyprint.pdf import stream as stream_module, tags as tags_module
    except ImportError:  # pragma: no cover - another WeasyPrint
        yield
        return
    stream_class = getattr(stream_module, "Stream", None)
    build_tree = getattr(tags_module, "_build_box_tree", None)
    if stream_class is None or build_tree is None or not hasattr(stream_class, "marked") \
            or not hasattr(stream_class, "artifact"):
        yield
        return
    furniture = {id(box) for margin in _margin_boxes(document) for box in _descendants(margin)}
    marked = stream_class.marked

    def marked_or_artifact(self, box, tag):
        if id(box) in furniture:
            return self.artifact()
        return marked(self, box, tag)

    def tree_without_margins(box, *args, **kwargs):
        if isinstance(box, boxes.MarginBox):
            return iter(())
        return build_tree(box, *args, **kwargs)

    stream_class.marked = marked_or_artifact
    tags_module._build_box_tree = tree_without_margins
    try:
        yield
    finally:
        stream_class.marked = marked
        tags_module._build_box_tree = build_tree


__all__ = ["PDF_VARIANT", "running_heads_as_artifacts"]

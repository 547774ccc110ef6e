"""Print-and-play pages of every game: layout on paper, tiling, SVG and PDF output.

``raceday print GAME [PART]`` (src/raceday/cli/print.py) and the browser's Print page
(src/raceday/web/print_pages.py) both build pages with :func:`raceday.printing.catalog.build`.
"""

"""The layout data agrees with the covering formulas and the peak split of the spec."""

from __future__ import annotations

from parlour.tripeaks.layout import BOTTOM_ROW, COVERED_BY, COVERS, PEAK_OF, PEAKS, ROW_OF, ROWS


def test_rows_hold_3_6_9_10_positions_in_order() -> None:
    assert [len(row) for row in ROWS] == [3, 6, 9, 10]
    assert [p for row in ROWS for p in row] == list(range(28))
    assert tuple(range(18, 28)) == BOTTOM_ROW


def test_covering_formulas_of_the_spec() -> None:
    for t in range(3):
        assert COVERED_BY[t] == (3 + 2 * t, 4 + 2 * t)
    for k in range(6):
        a = k + k // 2
        assert COVERED_BY[3 + k] == (9 + a, 10 + a)
    for j in range(9):
        assert COVERED_BY[9 + j] == (18 + j, 19 + j)
    assert all(COVERED_BY[p] == () for p in BOTTOM_ROW)


def test_covers_is_the_inverse_of_covered_by() -> None:
    pairs = {(p, q) for p in range(28) for q in COVERED_BY[p]}
    assert pairs == {(p, q) for q in range(28) for p in COVERS[q]}
    assert all(COVERS[t] == () for t in ROWS[0])
    assert COVERS[22] == (12, 13) and COVERS[23] == (13, 14)


def test_peaks_split_the_tableau_9_9_10() -> None:
    assert [len(peak) for peak in PEAKS] == [9, 9, 10]
    assert sorted(p for peak in PEAKS for p in peak) == list(range(28))
    assert PEAKS[0] == (0, 3, 4, 9, 10, 11, 18, 19, 20)
    assert PEAKS[1] == (1, 5, 6, 12, 13, 14, 21, 22, 23)
    assert PEAKS[2] == (2, 7, 8, 15, 16, 17, 24, 25, 26, 27)
    assert all(p in PEAKS[PEAK_OF[p]] for p in range(28))
    assert all(p in ROWS[ROW_OF[p]] for p in range(28))

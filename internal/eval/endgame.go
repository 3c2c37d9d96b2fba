package eval

import "github.com/riodraughts/rio/internal/movegen"

// endgame knows the endings the draw rules or theory decide. It returns
// the score for the side to move and true when it applies.
//
// Against a lone king (brazilian and russian, FMJD-64 7.2.7-7.2.8):
// two pieces or fewer cannot win; three pieces cannot win while the lone
// king holds the long diagonal. Three kings or more against a lone king off
// the long diagonal win: the score is decisive and rewards the strong side
// for holding the diagonal itself and for cornering the lone king, so the
// search finds the capture within the rule's 15 moves. Portuguese follows
// the same geometry (the rio), with its own 12-move count.
func endgame(v *movegen.Variant, w *Weights, p *movegen.Position) (int, bool) {
	for weak := movegen.White; weak <= movegen.Black; weak++ {
		strong := weak.Other()
		lone := p.Pieces[weak]
		if lone.Count() != 1 || p.Kings&lone == 0 || p.KingsOf(strong) == 0 {
			continue
		}
		n := p.Pieces[strong].Count()
		onDiagonal := lone&longDiagonal != 0
		switch {
		case n <= 2:
			return 0, true
		case n == 3 && onDiagonal:
			return 0, true
		case p.Men(strong) == 0 || p.KingsOf(strong).Count() >= 3:
			// Winning: hold the diagonal, take squares from the lone king.
			empty := movegen.Valid &^ p.Occupied()
			loneSq := lone.First()
			s := KnownWin + 100*n
			if p.KingsOf(strong)&longDiagonal != 0 {
				s += 200
			}
			s -= 10 * movegen.KingReach(loneSq, empty).Count()
			if onDiagonal {
				s -= 300
			}
			if p.Side == weak {
				s = -s
			}
			return s, true
		}
	}
	return 0, false
}

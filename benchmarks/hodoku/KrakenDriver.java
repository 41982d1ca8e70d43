package solver;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.List;
import java.util.TreeSet;
import sudoku.Candidate;
import sudoku.SolutionStep;
import sudoku.Sudoku2;

/** Test driver (not part of HoDoKu): each stdin line "<81 givens> <deleted drc tokens...>" ->
 *  one output line with every Kraken fish elimination HoDoKu's find-all-steps search gives
 *  (getAllKrakenFishes with the ALL_STEPS_* defaults: sizes 2-4, 2 fins, 0 endo fins, basic+Franken). */
public class KrakenDriver {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        SudokuStepFinder finder = new SudokuStepFinder();
        String line;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.isEmpty()) continue;
            String[] parts = line.split("\\s+");
            Sudoku2 s = new Sudoku2();
            s.setSudoku(parts[0]);
            for (int i = 1; i < parts.length; i++) {
                String t = parts[i];
                int d = t.charAt(0) - '0', r = t.charAt(1) - '1', c = t.charAt(2) - '1';
                s.delCandidate(r * 9 + c, d);
            }
            TreeSet<String> out = new TreeSet<String>();
            for (int d = 1; d <= 9; d++) {
                List<SolutionStep> steps = finder.getAllKrakenFishes(s, 2, 4, 2, 0, null, d, 1);
                for (SolutionStep st : steps) {
                    String code = st.getType().getLibraryType();
                    if (!code.startsWith("037")) continue;
                    StringBuilder b = new StringBuilder(code);
                    for (Candidate cand : st.getCandidatesToDelete()) {
                        b.append(" r").append(cand.getIndex() / 9 + 1).append("c").append(cand.getIndex() % 9 + 1)
                         .append("<>").append(cand.getValue());
                    }
                    out.add(b.toString());
                }
            }
            System.out.println("KRAKEN " + String.join(" | ", out));
        }
    }
}

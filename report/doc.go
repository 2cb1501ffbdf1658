// Package report draws figures and writes tables from numbers: line, bar,
// scatter and log-log plots and critical-difference diagrams with one
// palette (PCGCN red), a Markdown table writer, and atomic writes of both.
// It knows no study and no result type:
// it imports only the standard library, gonum.org/v1/plot and
// internal/atomicfile. What a study computes from its cells, and the tables
// and figures it makes of them, live in the study's file in studies.
package report

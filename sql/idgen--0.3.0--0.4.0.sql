-- idgen 0.3.0 -> 0.4.0.
\echo Use "ALTER EXTENSION idgen UPDATE" to load this file. \quit

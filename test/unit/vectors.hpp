// Reads the tab-separated vector files in test/vectors (header line first).
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace idgen::test {

using Row = std::vector<std::string>;

inline std::vector<Row> read_vectors(const std::string& name) {
  std::ifstream in(std::string(IDGEN_VECTORS_DIR) + "/" + name);
  std::vector<Row> rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (header) {
      header = false;
      continue;
    }
    Row row;
    std::stringstream fields(line);
    std::string field;
    while (std::getline(fields, field, '\t')) row.push_back(field);
    if (!line.empty() && line.back() == '\t') row.push_back("");
    rows.push_back(row);
  }
  return rows;
}

// A vector file in PostgreSQL COPY text style (test/vectors/README.md): lines starting with # are
// comments, the first other line is the header, and every field is unescaped (\\ \t \n \r).
inline std::vector<Row> read_copy_vectors(const std::string& name) {
  std::ifstream in(std::string(IDGEN_VECTORS_DIR) + "/" + name);
  std::vector<Row> rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    Row row(1);
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (c == '\t') {
        row.emplace_back();
      } else if (c == '\\' && i + 1 < line.size()) {
        const char e = line[++i];
        row.back().push_back(e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : e);
      } else {
        row.back().push_back(c);
      }
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace idgen::test

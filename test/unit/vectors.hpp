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

}  // namespace idgen::test

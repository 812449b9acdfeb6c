#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

#include "ecsia/storage/table_graph.hpp"
#include "support/test_components.hpp"

using namespace ecsia;

namespace {

struct GraphFixture {
    ComponentRegistry registry;
    ComponentId position = registry.register_type<test::Position>();
    ComponentId velocity = registry.register_type<test::Velocity>();
    ComponentId enemy = registry.register_type<test::Enemy>();
    TableGraph graph{registry};
};

}  // namespace

TEST_CASE("a table graph starts with one empty table", "[storage]") {
    GraphFixture f;
    CHECK(f.graph.table_count() == 1);
    CHECK(f.graph.table(0).signature().empty());
    CHECK(f.graph.table(0).columns().empty());
    CHECK(f.graph.find_or_create({}) == 0);
}

TEST_CASE("each component set has exactly one table, with one column per component", "[storage]") {
    GraphFixture f;
    const TableIndex pv = f.graph.find_or_create({f.position, f.velocity});
    const TableIndex p = f.graph.find_or_create({f.position});
    CHECK(pv != p);
    CHECK(f.graph.find_or_create({f.position, f.velocity}) == pv);
    CHECK(f.graph.table_count() == 3);
    const Table& table = f.graph.table(pv);
    CHECK(table.index() == pv);
    CHECK(table.signature() == std::vector<ComponentId>{f.position, f.velocity});
    REQUIRE(table.columns().size() == 2);
    CHECK(table.column(f.position)->component() == f.position);
    CHECK(table.column(f.velocity)->component() == f.velocity);
    CHECK(table.column(f.enemy) == nullptr);
    CHECK_FALSE(table.has(f.enemy));
    // Reaching the same set by graph walks in either order lands on the same table.
    CHECK(f.graph.with(f.graph.with(0, f.velocity), f.position) == pv);
    CHECK(f.graph.with(p, f.velocity) == pv);
}

TEST_CASE("add and remove edges are cached and walked back without new tables", "[storage]") {
    GraphFixture f;
    const TableIndex with_position = f.graph.with(0, f.position);
    const std::uint32_t tables = f.graph.table_count();
    const std::uint64_t generation = f.graph.storage_generation();
    CHECK(f.graph.table(0).add_edge(f.position) == with_position);
    CHECK(f.graph.table(with_position).remove_edge(f.position) == 0);

    CHECK(f.graph.with(0, f.position) == with_position);
    CHECK(f.graph.without(with_position, f.position) == 0);
    CHECK(f.graph.table_count() == tables);
    CHECK(f.graph.storage_generation() == generation);

    const TableIndex both = f.graph.with(with_position, f.enemy);
    CHECK(f.graph.table(with_position).add_edge(f.enemy) == both);
    CHECK(f.graph.table(both).remove_edge(f.enemy) == with_position);
    // A removal edge computed first is cached in both directions too.
    const TableIndex enemy_only = f.graph.without(both, f.position);
    CHECK(f.graph.table(both).remove_edge(f.position) == enemy_only);
    CHECK(f.graph.table(enemy_only).add_edge(f.position) == both);
    CHECK(f.graph.table(enemy_only).signature() == std::vector<ComponentId>{f.enemy});
}

TEST_CASE("adding a component a table has, or removing one it lacks, stays in that table", "[storage]") {
    GraphFixture f;
    const TableIndex p = f.graph.with(0, f.position);
    const std::uint32_t tables = f.graph.table_count();
    // Twice: the second answer comes from the cached edge to the table itself.
    for (int pass = 0; pass < 2; ++pass) {
        CHECK(f.graph.with(p, f.position) == p);
        CHECK(f.graph.without(p, f.velocity) == p);
        CHECK(f.graph.without(0, f.position) == 0);
    }
    CHECK(f.graph.table_count() == tables);
    // Those self-edges leave the real edges of the same components as they were.
    CHECK(f.graph.without(p, f.position) == 0);
    CHECK(f.graph.with(0, f.position) == p);
    const TableIndex pv = f.graph.with(p, f.velocity);
    CHECK(pv != p);
    CHECK(f.graph.without(pv, f.velocity) == p);
}

TEST_CASE("the storage generation rises when a table is created", "[storage]") {
    GraphFixture f;
    std::uint64_t generation = f.graph.storage_generation();
    f.graph.find_or_create({f.velocity});
    CHECK(f.graph.storage_generation() > generation);
    generation = f.graph.storage_generation();
    f.graph.find_or_create({f.velocity});
    CHECK(f.graph.storage_generation() == generation);
    f.graph.with(0, f.enemy);
    CHECK(f.graph.storage_generation() > generation);
}

TEST_CASE("swap-remove moves the last row into the hole and reports who moved", "[storage]") {
    GraphFixture f;
    Table& table = f.graph.table(f.graph.find_or_create({f.position}));
    const HandleLayout layout;
    for (std::uint32_t i = 0; i < 3; ++i) {
        const std::uint32_t row = table.push_default(layout.make(i, 0), 1);
        const test::Position p{float(i), float(-i)};
        std::memcpy(table.column(f.position)->element(row), &p, sizeof p);
    }
    CHECK(table.swap_remove(0) == layout.make(2, 0));
    CHECK(table.size() == 2);
    CHECK(table.entities()[0] == layout.make(2, 0));
    test::Position p;
    std::memcpy(&p, table.column(f.position)->element(0), sizeof p);
    CHECK(p.x == 2);
    CHECK(table.swap_remove(1).is_null());  // the last row: nobody moved
    CHECK(table.size() == 1);
}

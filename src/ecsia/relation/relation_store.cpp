#include "ecsia/relation/relation_store.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace ecsia {

RelationStore::Relation& RelationStore::define(RelationId id, ComponentDesc data, RelationOptions options) {
    if (slot_by_id_.size() <= id) slot_by_id_.resize(std::size_t(id) + 1, -1);
    Relation relation;
    relation.id = id;
    relation.options = options;
    relation.defaults = default_element(data);
    relation.data = std::move(data);
    // Room in both first: on std::bad_alloc the store is as it was (a world has a few relations).
    relations_.reserve(relations_.size() + 1);
    name_order_.reserve(name_order_.size() + 1);
    const auto position = static_cast<std::uint32_t>(relations_.size());
    const auto by_name = std::lower_bound(name_order_.begin(), name_order_.end(), relation.data.name,
                                          [&](std::uint32_t at, const std::string& name) { return relations_[at].data.name < name; });
    name_order_.insert(by_name, position);
    relations_.push_back(std::move(relation));
    slot_by_id_[id] = static_cast<std::int32_t>(position);
    return relations_.back();
}

RelationStore::Relation* RelationStore::find(RelationId id) noexcept {
    if (id >= slot_by_id_.size() || slot_by_id_[id] < 0) return nullptr;
    return &relations_[static_cast<std::size_t>(slot_by_id_[id])];
}

const RelationStore::Relation* RelationStore::find(RelationId id) const noexcept {
    return const_cast<RelationStore*>(this)->find(id);
}

std::size_t RelationStore::lower_bound(std::span<const Entity> list, Entity e) const noexcept {
    const std::uint32_t key = index(e);
    return static_cast<std::size_t>(
        std::lower_bound(list.begin(), list.end(), key, [&](Entity a, std::uint32_t k) { return index(a) < k; }) -
        list.begin());
}

std::span<const Entity> RelationStore::targets(const Relation& r, Entity subject) const noexcept {
    const std::uint32_t slot = index(subject);
    if (slot >= r.by_subject.size()) return {};
    return r.by_subject[slot].targets;
}

std::span<const Entity> RelationStore::subjects(const Relation& r, Entity target) const noexcept {
    const std::uint32_t slot = index(target);
    if (slot >= r.by_target.size()) return {};
    return r.by_target[slot].view();
}

bool RelationStore::has(const Relation& r, Entity subject, Entity target) const noexcept {
    const std::uint32_t slot = index(subject);
    if (slot >= r.by_subject.size()) return false;
    const TargetList& list = r.by_subject[slot].targets;
    if (target == kAnyTarget) return !list.empty();
    const std::size_t at = lower_bound(list, target);
    return at < list.size() && list[at] == target;
}

bool RelationStore::has_pair(RelationId relation, Entity subject, Entity target) const noexcept {
    const Relation* r = find(relation);
    return r != nullptr && has(*r, subject, target);
}

std::byte* RelationStore::data(Relation& r, Entity subject, Entity target) noexcept {
    const std::uint32_t slot = index(subject);
    if (r.data.size == 0 || slot >= r.by_subject.size()) return nullptr;
    Relation::Targets& entry = r.by_subject[slot];
    const std::size_t at = lower_bound(entry.targets, target);
    if (at >= entry.targets.size() || !(entry.targets[at] == target)) return nullptr;
    return entry.data.data() + at * r.data.size;
}

void RelationStore::insert(Relation& r, Entity subject, Entity target, const void* bytes) {
    const std::uint32_t subject_slot = index(subject), target_slot = index(target);
    // Both indexes grow before either changes: out of heap, the store is as it was.
    if (r.by_subject.size() <= subject_slot) r.by_subject.resize(std::size_t(subject_slot) + 1);
    if (r.by_target.size() <= target_slot) r.by_target.resize(std::size_t(target_slot) + 1);
    Relation::Targets& entry = r.by_subject[subject_slot];
    SubjectList& subjects = r.by_target[target_slot];
    // Geometric growth: an exact reserve of one more would copy a target's whole subject list on
    // every insert (quadratic for one prefab with 100,000 instances, or one parent's children).
    auto room_for = [](auto& list, std::size_t more) {
        if (list.size() + more > list.capacity()) list.reserve(std::max(list.size() + more, list.capacity() * 2));
    };
    entry.targets.make_room_for_one();
    room_for(entry.data, r.data.size);
    subjects.make_room_for(1);

    const std::size_t at = lower_bound(entry.targets, target);
    if (entry.targets.empty()) ++r.subjects;
    entry.targets.insert(at, target);
    const std::size_t size = r.data.size;
    if (size != 0) {
        const auto offset = static_cast<std::ptrdiff_t>(at * size);
        const auto* from = bytes != nullptr ? static_cast<const std::byte*>(bytes) : r.defaults.data();
        entry.data.insert(entry.data.begin() + offset, from, from + size);
    }
    if (subjects.empty() || index(subjects.back()) < subject_slot) {
        subjects.push_back(subject);  // the common case: a new subject in a slot above the others
    } else {
        subjects.insert(lower_bound(subjects.view(), subject), subject);
    }
    ++r.pairs;
    ++r.version;
    ++pair_count_;
    record_change(r, subject);
}

void RelationStore::insert_fresh(Relation& r, std::span<const Entity> subjects, Entity target) {
    if (subjects.empty()) return;
    std::uint32_t top = 0;
    for (Entity subject : subjects) top = std::max(top, index(subject));
    const std::uint32_t target_slot = index(target);
    // Every allocation first, as in insert().
    if (r.by_subject.size() <= top) r.by_subject.resize(std::size_t(top) + 1);
    if (r.by_target.size() <= target_slot) r.by_target.resize(std::size_t(target_slot) + 1);
    r.by_target[target_slot].make_room_for(subjects.size());
    std::vector<Entity>& list = r.by_target[target_slot].compacted();
    if (r.data.size != 0) {
        for (Entity subject : subjects) r.by_subject[index(subject)].data.reserve(r.data.size);
    }

    const std::size_t before = list.size();
    bool ascending = before == 0 || index(list.back()) < index(subjects.front());
    for (std::size_t i = 0; i < subjects.size(); ++i) {
        const Entity subject = subjects[i];
        Relation::Targets& entry = r.by_subject[index(subject)];
        entry.targets.insert(0, target);  // the one inline target: no room to make
        entry.data.assign(r.defaults.begin(), r.defaults.end());  // within the capacity reserved above
        list.push_back(subject);
        ascending = ascending && (i == 0 || index(subjects[i - 1]) < index(subject));
        ++r.version;
        record_change(r, subject);
    }
    if (!ascending) {
        // New subjects from reused slots: sorted into place (inplace_merge falls back to an
        // unbuffered merge rather than throw when it cannot allocate).
        auto by_index = [&](Entity a, Entity b) { return index(a) < index(b); };
        const auto middle = list.begin() + static_cast<std::ptrdiff_t>(before);
        std::sort(middle, list.end(), by_index);
        std::inplace_merge(list.begin(), middle, list.end(), by_index);
    }
    r.subjects += static_cast<std::uint32_t>(subjects.size());
    r.pairs += subjects.size();
    pair_count_ += subjects.size();
}

void RelationStore::record_change(Relation& r, Entity subject) noexcept {
    // Only an exclusive relation's depths are cached (cascade systems need one parent per row).
    if (!r.options.exclusive) {
        r.changes_floor = r.version;
        return;
    }
    // A cache further behind than this many changes recomputes in full anyway: past it, the older
    // half goes (caches that keep up, once a frame, never fall behind the floor).
    const std::size_t keep = std::max<std::size_t>(1024, r.pairs / 4);
    if (r.changes.size() >= keep) {
        const std::size_t dropped = r.changes.size() / 2;
        r.changes_floor = r.changes[dropped - 1].version;
        r.changes.erase(r.changes.begin(), r.changes.begin() + static_cast<std::ptrdiff_t>(dropped));
    }
    try {
        r.changes.push_back(Relation::Change{r.version, subject});
    } catch (...) {  // out of heap: forgetting the changes only costs their caches a full recompute
        r.changes.clear();
        r.changes_floor = r.version;
    }
}

void RelationStore::reserve(Relation& r, std::uint32_t slots, Entity target, std::size_t more) {
    const std::uint32_t target_slot = index(target);
    if (r.by_subject.capacity() < slots) r.by_subject.reserve(std::max<std::size_t>(slots, r.by_subject.capacity() * 2));
    if (r.by_target.size() <= target_slot) r.by_target.resize(std::size_t(target_slot) + 1);
    // Geometric, as in insert(): one instantiate after another must not copy the list each time.
    r.by_target[target_slot].make_room_for(more);
}

bool RelationStore::erase(Relation& r, Entity subject, Entity target) {
    const std::uint32_t subject_slot = index(subject);
    if (subject_slot >= r.by_subject.size()) return false;
    Relation::Targets& entry = r.by_subject[subject_slot];
    const std::size_t at = lower_bound(entry.targets, target);
    if (at >= entry.targets.size() || !(entry.targets[at] == target)) return false;
    entry.targets.erase(at);
    const std::size_t size = r.data.size;
    if (size != 0) {
        const auto offset = static_cast<std::ptrdiff_t>(at * size);
        entry.data.erase(entry.data.begin() + offset, entry.data.begin() + offset + static_cast<std::ptrdiff_t>(size));
    }
    if (entry.targets.empty()) --r.subjects;
    SubjectList& subjects = r.by_target[index(target)];
    subjects.erase(lower_bound(subjects.view(), subject));
    --r.pairs;
    ++r.version;
    --pair_count_;
    record_change(r, subject);
    return true;
}

void RelationStore::clear_pairs() noexcept {
    for (Relation& r : relations_) {
        r.by_subject.clear();
        r.by_target.clear();
        r.pairs = 0;
        r.subjects = 0;
        ++r.version;
        r.changes.clear();
        r.changes_floor = r.version;
    }
    pair_count_ = 0;
}

}  // namespace ecsia

// The grid's own bar: filter by name and the order, above the thumbnails they act on.
import type { SortKey } from '../state/store.js';
import { useApp, useController } from './context.js';

export function GridFilter() {
  const a = useController().actions;
  const filter = useApp((s) => s.library.filter);
  const sort = useApp((s) => s.library.sort);
  return (
    <div className="grid-bar" role="group" aria-label="Grid order">
      <input
        aria-label="Filter"
        className="filter"
        type="search"
        placeholder="filter by name"
        value={filter}
        onChange={(e) => a.setFilter(e.target.value)}
        title="Show only files whose name contains this (/)"
      />
      <select
        aria-label="Sort"
        value={sort}
        onChange={(e) => a.setSort(e.target.value as SortKey)}
        title="Order of the grid (Shift+S: next order)"
      >
        <option value="name">name</option>
        <option value="mtime">newest</option>
        <option value="size">largest</option>
      </select>
    </div>
  );
}

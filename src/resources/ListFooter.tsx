// A resource list's footer: which rows of how many are shown (beyond the server's count cap the total is a lower
// bound: "1–20 of 10,000+", no last page, next still open), how many are marked, and the pager.
import { Button, ButtonGroup, Tag } from '@blueprintjs/core';
import type { Pager } from '../../machines/resourceList.selectors';
import { tx } from '../i18n';

export function ListFooter({ pager, page, marked, onPage }: { pager: Pager; page: number; marked: number; onPage: (page: number) => void }) {
  const num = (n: number) => n.toLocaleString('en-US');
  const range = { from: num(pager.from), to: num(pager.to), total: num(pager.total) };
  return (
    <div className="gh-list__footer">
      <span data-testid="list-range">{pager.atLeast ? tx('{from}–{to} of {total}+', range) : tx('{from}–{to} of {total}', range)}</span>
      {marked > 0 && (
        <Tag minimal round intent="primary">
          {tx('{n} selected', { n: marked })}
        </Tag>
      )}
      <div className="gh-list__spacer" />
      <ButtonGroup variant="minimal">
        <Button icon="double-chevron-left" aria-label={tx('First page')} disabled={page === 0} onClick={() => onPage(0)} />
        <Button icon="chevron-left" aria-label={tx('Previous page')} disabled={page === 0} onClick={() => onPage(page - 1)} />
        <span className="gh-list__page">
          {tx(pager.atLeast ? 'Page {page} of {pages}+' : 'Page {page} of {pages}', { page: num(page + 1), pages: num(pager.pages) })}
        </span>
        <Button icon="chevron-right" aria-label={tx('Next page')} disabled={!pager.hasNext} onClick={() => onPage(page + 1)} />
        <Button
          icon="double-chevron-right"
          aria-label={tx('Last page')}
          disabled={pager.lastPage === null || page >= pager.lastPage}
          onClick={() => pager.lastPage !== null && onPage(pager.lastPage)}
        />
      </ButtonGroup>
    </div>
  );
}

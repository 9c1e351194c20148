import type { CustomerSortColumn } from '../../../../api/contract/search-values';
import type { CustomerListQuery } from '../../../../api/customers';
import { toListQuery, type TableSearch } from '../../../../components/data-table/table-search';

// Apart from the columns so that the route tree (loaded before sign-in) does not pull the table.

export const CUSTOMERS_PER_PAGE = 10;
export const CUSTOMER_DEFAULT_SORT = 'name.asc';

export const customerListQuery = (search: TableSearch<CustomerSortColumn>): CustomerListQuery =>
  toListQuery(search, CUSTOMERS_PER_PAGE);

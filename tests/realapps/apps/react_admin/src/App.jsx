// The deployer's glue: a customer desk over json-server. Everything here is react-admin's own components with
// their defaults (undoable edit and delete, the built-in login page, CSV export from the list).
import {
  Admin, Resource, List, Datagrid, TextField, EmailField, BooleanField, DateField, NumberField, ReferenceField,
  ReferenceArrayField, ChipField, SingleFieldList, Edit, Create, SimpleForm, TextInput, NumberInput, DateInput,
  BooleanInput, SelectInput, ReferenceInput, ReferenceArrayInput, SelectArrayInput, AutocompleteInput, ArrayInput,
  SimpleFormIterator, SearchInput, required, email,
} from 'react-admin';
import jsonServerProvider from 'ra-data-json-server';
import { QueryClient } from '@tanstack/react-query';
import { authProvider } from './authProvider';

const dataProvider = jsonServerProvider(window.location.origin);
// The desk's API is on the same machine: a failed read is not retried three times with back-off (react-query's
// default), which kept a signed-out visitor waiting ~10 s for the sign-in page.
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });

const Dashboard = () => (
  <div style={{ padding: 24 }}>
    <h1>Welcome to the customer desk</h1>
    <p>Customers, their segments and tags, and the invoices sent to them.</p>
  </div>
);

const customerFilters = [<SearchInput key="q" source="q" alwaysOn />];

const CustomerList = () => (
  <List filters={customerFilters} sort={{ field: 'name', order: 'ASC' }}>
    <Datagrid rowClick="edit">
      <TextField source="name" />
      <EmailField source="email" />
      <ReferenceField source="segment_id" reference="segments" label="Segment" />
      <ReferenceArrayField source="tag_ids" reference="tags" label="Tags">
        <SingleFieldList linkType={false}><ChipField source="name" size="small" /></SingleFieldList>
      </ReferenceArrayField>
      <BooleanField source="vip" label="VIP" />
    </Datagrid>
  </List>
);

const CustomerForm = () => (
  <SimpleForm>
    <TextInput source="name" validate={required()} />
    <TextInput source="email" validate={[required(), email()]} />
    <ReferenceInput source="segment_id" reference="segments" sort={{ field: 'name', order: 'ASC' }}>
      <SelectInput label="Segment" optionText="name" validate={required()} />
    </ReferenceInput>
    <ReferenceArrayInput source="tag_ids" reference="tags" sort={{ field: 'name', order: 'ASC' }}>
      <SelectArrayInput label="Tags" optionText="name" />
    </ReferenceArrayInput>
    <BooleanInput source="vip" label="VIP" />
    <DateInput source="since" label="Customer since" />
  </SimpleForm>
);

const CustomerEdit = () => <Edit><CustomerForm /></Edit>;
const CustomerCreate = () => <Create redirect="list"><CustomerForm /></Create>;

const invoiceFilters = [<SearchInput key="q" source="q" alwaysOn />];

const InvoiceList = () => (
  <List filters={invoiceFilters} sort={{ field: 'date', order: 'DESC' }}>
    <Datagrid rowClick="edit">
      <TextField source="reference" />
      <ReferenceField source="customer_id" reference="customers" label="Customer" />
      <DateField source="date" />
      <TextField source="status" />
      <NumberField source="amount" />
    </Datagrid>
  </List>
);

const statusChoices = [
  { id: 'draft', name: 'Draft' },
  { id: 'sent', name: 'Sent' },
  { id: 'paid', name: 'Paid' },
];

const InvoiceForm = () => (
  <SimpleForm>
    <TextInput source="reference" validate={required()} />
    <ReferenceInput source="customer_id" reference="customers" sort={{ field: 'name', order: 'ASC' }} perPage={10}>
      <AutocompleteInput label="Customer" optionText="name" validate={required()} />
    </ReferenceInput>
    <DateInput source="date" validate={required()} />
    <SelectInput source="status" choices={statusChoices} validate={required()} />
    <NumberInput source="amount" validate={required()} />
    <ArrayInput source="lines">
      <SimpleFormIterator inline>
        <TextInput source="description" helperText={false} />
        <NumberInput source="quantity" helperText={false} />
      </SimpleFormIterator>
    </ArrayInput>
  </SimpleForm>
);

const InvoiceEdit = () => <Edit><InvoiceForm /></Edit>;
const InvoiceCreate = () => <Create redirect="list"><InvoiceForm /></Create>;

const SegmentList = () => (
  <List sort={{ field: 'name', order: 'ASC' }}>
    <Datagrid rowClick="edit">
      <TextField source="name" />
      <TextField source="description" />
    </Datagrid>
  </List>
);

const SegmentForm = () => (
  <SimpleForm>
    <TextInput source="name" validate={required()} />
    <TextInput source="description" multiline />
  </SimpleForm>
);

const TagList = () => (
  <List sort={{ field: 'name', order: 'ASC' }}>
    <Datagrid rowClick="edit"><TextField source="name" /></Datagrid>
  </List>
);

export const App = () => (
  <Admin title="Customer desk" dataProvider={dataProvider} queryClient={queryClient} authProvider={authProvider} dashboard={Dashboard}
         disableTelemetry>
    <Resource name="customers" list={CustomerList} edit={CustomerEdit} create={CustomerCreate}
              recordRepresentation="name" />
    <Resource name="invoices" list={InvoiceList} edit={InvoiceEdit} create={InvoiceCreate}
              recordRepresentation="reference" />
    <Resource name="segments" list={SegmentList} edit={() => <Edit><SegmentForm /></Edit>}
              create={() => <Create redirect="list"><SegmentForm /></Create>} recordRepresentation="name" />
    <Resource name="tags" list={TagList} recordRepresentation="name" />
  </Admin>
);
